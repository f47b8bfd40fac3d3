package dev.switchboard.sql.grants;

import dev.switchboard.platform.ApiException;
import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.auth.PermissionMapping;
import dev.switchboard.sql.service.SchemaService;
import dev.switchboard.sql.service.SessionService;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The permissions of the query dialect an admin can grant: {@code table:{name}:read} for a table of the query
 * database, {@code table:*:read} (every table, now and later), {@code schema:read}, {@code session:manage} and
 * {@code admin:*}. The dialect's {@code table:{name}:write} is refused: the query service runs read-only statements
 * only, so such a grant would promise what nothing honours.
 */
public final class GrantablePermission {

    private static final Set<String> NAMED = Set.of(SchemaService.SCHEMA_READ, SessionService.SESSION_MANAGE,
            Permissions.ADMIN, PermissionMapping.EVERY_TABLE);
    private static final Pattern TABLE = Pattern.compile("table:([^:]+):(read|write)");
    static final String FORMS = "table:{name}:read, table:*:read, schema:read, session:manage or admin:*";

    private GrantablePermission() {
    }

    /**
     * The permission as stored (lower case, trimmed); a 400 {@code invalid_permission} for anything else and
     * {@code unknown_table} for a table the query database does not have.
     */
    public static String parse(String text, Set<String> tables) {
        String permission = text.strip().toLowerCase(Locale.ROOT);
        if (NAMED.contains(permission)) {
            return permission;
        }
        Matcher table = TABLE.matcher(permission);
        if (!table.matches()) {
            throw ApiException.badRequest("invalid_permission", "'permission' must be " + FORMS + "; got '" + text + "'");
        }
        if (table.group(2).equals("write")) {
            throw ApiException.badRequest("invalid_permission", "'" + text + "' cannot be granted: the query service "
                    + "runs read-only statements only; grant table:" + table.group(1) + ":read");
        }
        if (!tables.contains(table.group(1))) {
            throw ApiException.badRequest("unknown_table", "The query database has no table '" + table.group(1)
                    + "' (if it was just created, refresh the schema: POST /api/query/schema/refresh)");
        }
        return permission;
    }
}
