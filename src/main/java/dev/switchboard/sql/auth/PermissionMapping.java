package dev.switchboard.sql.auth;

import dev.switchboard.security.DefaultTenant;
import dev.switchboard.sql.Caller;
import dev.switchboard.sql.Permissions;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A caller's query-service permissions ({@link EffectivePermissions}): the token's own {@code permissions} claim, what
 * admins granted the caller and its roles in its tenant ({@link StoredGrants}), and for roles no admin has set there
 * the configured role mapping (e.g. admin -> {@code admin:*}, user -> {@code schema:read}, {@code session:manage},
 * {@code table:*:read}). {@code table:*:read} stands for every table of the query database at the time of the call.
 */
public final class PermissionMapping {

    public static final String CLAIM = "permissions";
    private static final int MAX_EXPANSIONS = 256;
    public static final String EVERY_TABLE = "table:*:read";

    private final Map<String, List<String>> byRole;
    private final Supplier<Set<String>> tables;
    private final StoredGrants.Source grants;
    private final DefaultTenant tenants;
    /**
     * Expansions by granted list, valid for one catalog snapshot: the built-in server expands its caller's roles on
     * every call, and {@code table:*:read} over hundreds of tables is worth doing once.
     */
    private final Map<List<String>, Expanded> expanded = new ConcurrentHashMap<>();

    private record Expanded(Set<String> tables, Permissions permissions) {
    }

    /**
     * @param byRole  the configured defaults of each role ({@code query.role.*})
     * @param tables  the query database's tables now, for {@code table:*:read}
     * @param grants  what admins granted, by tenant and subject
     * @param tenants the tenant of a token that names none
     */
    public PermissionMapping(Map<String, List<String>> byRole, Supplier<Set<String>> tables, StoredGrants.Source grants,
                             DefaultTenant tenants) {
        this.byRole = Map.copyOf(byRole);
        this.tables = tables;
        this.grants = grants;
        this.tenants = tenants;
    }

    /** The caller of a verified token, with its permissions as they are now. */
    public Caller caller(JsonObject claims) {
        List<String> roles = strings(claims.get("groups"));
        String subject = claims.getString("sub");
        List<String> claimed = claims.containsKey(CLAIM) ? strings(claims.get(CLAIM)) : null;
        List<String> granted = EffectivePermissions.of(claimed, grants.of(tenants.of(claims), subject), roles, byRole);
        String username = claims.getString("preferred_username", claims.getString("upn", subject));
        Instant expiresAt = Instant.ofEpochSecond(((JsonNumber) claims.get("exp")).longValue());
        return new Caller(subject, username, roles, expand(granted), expiresAt);
    }

    /** A caller known by subject, tenant and roles only (the built-in MCP server's): no claim of its own. */
    public Caller caller(String subject, String tenant, List<String> roles, Instant expiresAt) {
        List<String> granted = EffectivePermissions.of(null, grants.of(tenant, subject), roles, byRole);
        return new Caller(subject, subject, roles, expand(granted), expiresAt);
    }

    /** The permissions a caller with these stored grants and roles holds, {@code table:*:read} expanded. */
    public Permissions permissions(StoredGrants stored, List<String> roles) {
        return expand(EffectivePermissions.of(null, stored, roles, byRole));
    }

    /** The configured default of a role ({@code query.role.<role>}), as granted before any admin changed it. */
    public List<String> roleDefault(String role) {
        return byRole.getOrDefault(role, List.of());
    }

    private Permissions expand(List<String> granted) {
        Set<String> snapshot = tables.get();
        Expanded known = expanded.get(granted);
        if (known != null && (known.tables() == snapshot || known.tables().equals(snapshot))) {
            return known.permissions();
        }
        Set<String> permissions = new TreeSet<>();
        for (String permission : granted) {
            if (permission.equals(EVERY_TABLE)) {
                snapshot.forEach(t -> permissions.add(Permissions.readPermission(t)));
            } else {
                permissions.add(permission);
            }
        }
        Permissions result = new Permissions(permissions);
        if (expanded.size() >= MAX_EXPANSIONS) {
            expanded.clear(); // tokens' own permission claims come in many lists; role mappings in a few
        }
        expanded.put(List.copyOf(granted), new Expanded(snapshot, result));
        return result;
    }

    private static List<String> strings(JsonValue value) {
        List<String> out = new ArrayList<>();
        if (value instanceof JsonArray array) {
            array.forEach(v -> {
                if (v instanceof JsonString s) {
                    out.add(s.getString());
                }
            });
        } else if (value instanceof JsonString s) {
            out.addAll(List.of(s.getString().split("[,\\s]+")));
        }
        return out;
    }
}
