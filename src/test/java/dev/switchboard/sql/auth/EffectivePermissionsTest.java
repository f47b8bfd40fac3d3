package dev.switchboard.sql.auth;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A caller's permissions: token claim ∪ grants to the caller ∪ grants to its roles (or their configured default). */
class EffectivePermissionsTest {

    static final Map<String, List<String>> DEFAULTS = Map.of("admin", List.of("admin:*"),
            "user", List.of("schema:read", "session:manage", "table:*:read"));

    @Test
    void withoutGrantsARoleHoldsItsConfiguredDefault() {
        assertEquals(List.of("schema:read", "session:manage", "table:*:read"),
                EffectivePermissions.of(null, StoredGrants.NONE, List.of("user"), DEFAULTS));
        assertEquals(List.of("admin:*", "schema:read", "session:manage", "table:*:read"),
                EffectivePermissions.of(null, StoredGrants.NONE, List.of("admin", "user"), DEFAULTS));
        assertEquals(List.of(), EffectivePermissions.of(null, StoredGrants.NONE, List.of("guest"), DEFAULTS), "a role nobody configured");
    }

    @Test
    void grantsToTheCallerAddToItsRoles() {
        StoredGrants stored = new StoredGrants(Set.of("table:employees:read"), Map.of());
        assertEquals(List.of("schema:read", "session:manage", "table:*:read", "table:employees:read"),
                EffectivePermissions.of(null, stored, List.of("user"), DEFAULTS));
        assertEquals(List.of("table:employees:read"), EffectivePermissions.of(null, stored, List.of(), DEFAULTS), "no role at all");
    }

    @Test
    void aRoleAnAdminHasSetHoldsItsGrantsInsteadOfItsDefault() {
        StoredGrants narrowed = new StoredGrants(Set.of(), Map.of("user", Set.of("schema:read", "table:orders:read")));
        assertEquals(List.of("schema:read", "table:orders:read"), EffectivePermissions.of(null, narrowed, List.of("user"), DEFAULTS));
        StoredGrants emptied = new StoredGrants(Set.of("table:users:read"), Map.of("user", Set.of()));
        assertEquals(List.of("table:users:read"), EffectivePermissions.of(null, emptied, List.of("user"), DEFAULTS),
                "every grant of the role revoked: nothing from the role, not its default again");
        assertEquals(List.of("admin:*"), EffectivePermissions.of(null, emptied, List.of("admin"), DEFAULTS).subList(0, 1),
                "another role keeps its default");
    }

    @Test
    void aTokensOwnClaimReplacesRoleDefaultsButNotGrants() {
        List<String> claimed = List.of("table:orders:read");
        assertEquals(List.of("table:orders:read"), EffectivePermissions.of(claimed, StoredGrants.NONE, List.of("user"), DEFAULTS),
                "a token naming its tables keeps to them while no admin granted more");
        StoredGrants granted = new StoredGrants(Set.of("schema:read"), Map.of("user", Set.of("table:users:read")));
        assertEquals(List.of("schema:read", "table:orders:read", "table:users:read"),
                EffectivePermissions.of(claimed, granted, List.of("user"), DEFAULTS));
        assertEquals(List.of(), EffectivePermissions.of(List.of(), StoredGrants.NONE, List.of("user"), DEFAULTS), "an empty claim");
    }
}
