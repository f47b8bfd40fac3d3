package dev.switchboard.sql.grants;

import dev.switchboard.platform.ApiException;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an admin can grant: the dialect's read permissions over tables that exist, and its named permissions. */
class GrantablePermissionTest {

    static final Set<String> TABLES = Set.of("users", "orders");

    @Test
    void theDialectsPermissionsAreStoredInLowerCase() {
        assertEquals("table:orders:read", GrantablePermission.parse(" Table:ORDERS:read ", TABLES));
        assertEquals("table:*:read", GrantablePermission.parse("table:*:read", TABLES));
        assertEquals("schema:read", GrantablePermission.parse("schema:read", TABLES));
        assertEquals("session:manage", GrantablePermission.parse("SESSION:MANAGE", TABLES));
        assertEquals("admin:*", GrantablePermission.parse("admin:*", TABLES));
    }

    @Test
    void anythingElseIsRefusedSayingWhatToGrant() {
        ApiException unknown = assertThrows(ApiException.class, () -> GrantablePermission.parse("table:nope:read", TABLES));
        assertEquals("unknown_table", unknown.code());
        assertTrue(unknown.getMessage().contains("'nope'"), unknown.getMessage());
        ApiException write = assertThrows(ApiException.class, () -> GrantablePermission.parse("table:orders:write", TABLES));
        assertEquals("invalid_permission", write.code());
        assertTrue(write.getMessage().contains("read-only") && write.getMessage().contains("table:orders:read"), write.getMessage());
        for (String bad : new String[] {"", "orders", "table:orders", "table::read", "schema:write", "admin", "table:a:b:read"}) {
            ApiException e = assertThrows(ApiException.class, () -> GrantablePermission.parse(bad, TABLES), bad);
            assertEquals("invalid_permission", e.code(), bad);
            assertTrue(e.getMessage().contains(GrantablePermission.FORMS), e.getMessage());
        }
    }
}
