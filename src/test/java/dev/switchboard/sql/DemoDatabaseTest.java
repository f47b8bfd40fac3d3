package dev.switchboard.sql;

import dev.switchboard.persistence.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo scripts load on both databases with the same rows. */
class DemoDatabaseTest {

    static final Map<String, Integer> ROWS = new LinkedHashMap<>();

    static {
        ROWS.put("departments", 8);
        ROWS.put("users", 120);
        ROWS.put("user_profiles", 100);
        ROWS.put("employees", 60);
        ROWS.put("products", 50);
        ROWS.put("orders", 300);
        ROWS.put("order_items", 750);
        ROWS.put("login_logs", 200);
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void loadsEveryTableWithItsRows(TestDatabase.Kind kind) throws Exception {
        try (DemoQueryDatabase db = DemoQueryDatabase.open(kind); Connection c = db.source().open()) {
            for (Map.Entry<String, Integer> table : ROWS.entrySet()) {
                try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM " + table.getKey())) {
                    assertTrue(rs.next());
                    assertEquals(table.getValue(), rs.getInt(1), table.getKey());
                }
            }
            try (ResultSet rs = c.createStatement().executeQuery("SELECT name, email FROM users WHERE id = 1")) {
                assertTrue(rs.next());
                assertEquals("黄军", rs.getString(1));
                assertEquals("huang001@example.com", rs.getString(2));
            }
        }
    }
}
