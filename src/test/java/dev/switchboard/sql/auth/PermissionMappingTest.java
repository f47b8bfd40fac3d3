package dev.switchboard.sql.auth;

import dev.switchboard.security.DefaultTenant;
import dev.switchboard.sql.Caller;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** From a token's claims (or a pooled connection's identity) to the caller's permissions, table:*:read expanded. */
class PermissionMappingTest {

    static final DefaultTenant TENANTS = new DefaultTenant("default");
    static final Map<String, List<String>> ROLES = Map.of("admin", List.of("admin:*"), "user", List.of("schema:read", "table:*:read"));

    static JsonObjectBuilder claims() {
        return Json.createObjectBuilder().add("iss", "switchboard").add("aud", "switchboard").add("sub", "alice")
                .add("upn", "alice").add("groups", Json.createArrayBuilder().add("user"))
                .add("exp", Instant.now().getEpochSecond() + 600);
    }

    static PermissionMapping mapping(StoredGrants.Source grants) {
        return new PermissionMapping(ROLES, () -> Set.of("users", "orders"), grants, TENANTS);
    }

    @Test
    void permissionsFromTheClaimOrFromTheRoleMapping() {
        PermissionMapping mapping = mapping(StoredGrants.Source.NONE);
        Caller user = mapping.caller(claims().build());
        assertEquals(List.of("schema:read", "table:orders:read", "table:users:read"), user.permissions().sorted());
        assertEquals("alice", user.username());
        Caller claimed = mapping.caller(claims().add("permissions", Json.createArrayBuilder().add("table:orders:read")).build());
        assertEquals(List.of("table:orders:read"), claimed.permissions().sorted(), "the token's own claim replaces the role defaults");
        Caller admin = mapping.caller(claims().add("groups", Json.createArrayBuilder().add("admin").add("user")).build());
        assertTrue(admin.permissions().isAdmin());
        Caller stranger = mapping.caller(claims().add("groups", Json.createArrayBuilder().add("guest")).build());
        assertEquals(List.of(), stranger.permissions().sorted());
    }

    /** The grants of the caller's tenant (its token's tenant claim, else the default tenant), and of no other. */
    @Test
    void grantsAreThoseOfTheCallersTenant() {
        List<String> asked = new ArrayList<>();
        PermissionMapping mapping = mapping((tenant, subject) -> {
            asked.add(tenant + "/" + subject);
            return tenant.equals("acme") ? new StoredGrants(Set.of("table:employees:read"), Map.of("user", Set.of("table:orders:read")))
                    : StoredGrants.NONE;
        });
        Caller inAcme = mapping.caller(claims().add("tenant", "acme").build());
        assertEquals(List.of("table:employees:read", "table:orders:read"), inAcme.permissions().sorted(),
                "alice's grant and role user's grants in acme, where an admin set them");
        Caller inDefault = mapping.caller(claims().build());
        assertEquals(List.of("schema:read", "table:orders:read", "table:users:read"), inDefault.permissions().sorted(),
                "acme's grants do not reach alice of the default tenant");
        Caller pooled = mapping.caller("alice", "acme", List.of("user"), Instant.MAX);
        assertEquals(inAcme.permissions(), pooled.permissions(), "the sqlquery tools' caller gets the same");
        assertEquals(List.of("acme/alice", "default/alice", "acme/alice"), asked);
    }

    @Test
    void aClaimAndGrantsTogether() {
        PermissionMapping mapping = mapping((tenant, subject) -> new StoredGrants(Set.of("schema:read"), Map.of()));
        Caller claimed = mapping.caller(claims().add("permissions", Json.createArrayBuilder().add("table:orders:read")).build());
        assertEquals(List.of("schema:read", "table:orders:read"), claimed.permissions().sorted());
    }

    /** The built-in server maps roles on every call: the expansion is reused until the catalog's tables change. */
    @Test
    void roleExpansionsFollowTheCatalogsTables() {
        AtomicReference<Set<String>> tables = new AtomicReference<>(Set.of("users"));
        PermissionMapping mapping = new PermissionMapping(Map.of("user", List.of("table:*:read")), tables::get, StoredGrants.Source.NONE, TENANTS);
        Caller first = mapping.caller("alice", "default", List.of("user"), Instant.MAX);
        assertTrue(first.permissions() == mapping.caller("bob", "default", List.of("user"), Instant.MAX).permissions(), "expanded once");
        tables.set(Set.of("users", "orders"));
        assertEquals(List.of("table:orders:read", "table:users:read"), mapping.caller("alice", "default", List.of("user"), Instant.MAX).permissions().sorted());
        tables.set(Set.of("orders"));
        assertEquals(List.of("table:orders:read"), mapping.caller("alice", "default", List.of("user"), Instant.MAX).permissions().sorted(),
                "a dropped table is no longer granted");
    }

    @Test
    void aCallerKnownByRolesOnlyGetsWhatTheMappingGivesThem() {
        PermissionMapping mapping = mapping(StoredGrants.Source.NONE);
        Caller user = mapping.caller("bob", "default", List.of("user"), Instant.MAX);
        assertEquals("bob", user.userId());
        assertEquals(List.of("schema:read", "table:orders:read", "table:users:read"), user.permissions().sorted());
        assertTrue(mapping.caller("root", "default", List.of("user", "admin"), Instant.MAX).permissions().isAdmin());
        assertEquals(List.of(), mapping.caller("guest", "default", List.of("guest"), Instant.MAX).permissions().sorted());
    }
}
