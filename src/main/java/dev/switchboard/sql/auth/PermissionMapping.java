package dev.switchboard.sql.auth;

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
 * A verified token's query-dialect permissions: the token's own {@code permissions} claim when it has one, else the
 * union of what the configured role mapping grants its {@code groups} (e.g. admin -> {@code admin:*}, user ->
 * {@code schema:read}, {@code session:manage}, {@code table:*:read}). {@code table:*:read} stands for every table
 * of the query database at the time of authentication.
 */
public final class PermissionMapping {

    public static final String CLAIM = "permissions";
    private static final int MAX_EXPANSIONS = 256;
    static final String EVERY_TABLE = "table:*:read";

    private final Map<String, List<String>> byRole;
    private final Supplier<Set<String>> tables;
    /**
     * Expansions by granted list, valid for one catalog snapshot: the built-in server expands its caller's roles on
     * every call, and {@code table:*:read} over hundreds of tables is worth doing once.
     */
    private final Map<List<String>, Expanded> expanded = new ConcurrentHashMap<>();

    private record Expanded(Set<String> tables, Permissions permissions) {
    }

    public PermissionMapping(Map<String, List<String>> byRole, Supplier<Set<String>> tables) {
        this.byRole = Map.copyOf(byRole);
        this.tables = tables;
    }

    public Caller caller(JsonObject claims) {
        List<String> roles = strings(claims.get("groups"));
        List<String> granted = claims.containsKey(CLAIM) ? strings(claims.get(CLAIM)) : granted(roles);
        String subject = claims.getString("sub");
        String username = claims.getString("preferred_username", claims.getString("upn", subject));
        Instant expiresAt = Instant.ofEpochSecond(((JsonNumber) claims.get("exp")).longValue());
        return new Caller(subject, username, roles, expand(granted), expiresAt);
    }

    /** A caller known by subject and roles only (the built-in MCP server's): the role mapping decides. */
    public Caller caller(String subject, List<String> roles, Instant expiresAt) {
        return new Caller(subject, subject, roles, expand(granted(roles)), expiresAt);
    }

    private List<String> granted(List<String> roles) {
        return roles.stream().flatMap(r -> byRole.getOrDefault(r, List.of()).stream()).toList();
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
