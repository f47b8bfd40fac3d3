package dev.switchboard.sql;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a caller of the query service may read: the query dialect's {@code table:{name}:read} per table, or {@code admin:*}.
 * Table names compare case-insensitively, so {@code USERS} needs the same permission as {@code users}.
 */
public record Permissions(Set<String> granted) {

    public static final String ADMIN = "admin:*";

    public Permissions {
        TreeSet<String> normalized = new TreeSet<>();
        granted.forEach(p -> normalized.add(p.toLowerCase(Locale.ROOT)));
        granted = Set.copyOf(normalized);
    }

    public static Permissions of(String... granted) {
        return new Permissions(Set.of(granted));
    }

    public static String readPermission(String table) {
        return "table:" + table.toLowerCase(Locale.ROOT) + ":read";
    }

    public boolean isAdmin() {
        return granted.contains(ADMIN);
    }

    /** A named permission ({@code schema:read}, {@code session:manage}); {@code admin:*} holds every one. */
    public boolean has(String permission) {
        return isAdmin() || granted.contains(permission.toLowerCase(Locale.ROOT));
    }

    public boolean canRead(String table) {
        return isAdmin() || granted.contains(readPermission(table));
    }

    /** Sorted, for error data that reads the same every time. */
    public List<String> sorted() {
        return granted.stream().sorted().toList();
    }
}
