package dev.switchboard.it.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

/** A look into the test server's demo query database, to show that what the guard refused changed nothing. */
public final class QueryDatabase {

    private QueryDatabase() {
    }

    /** Rows per table of the server's query database (read through H2's AUTO_SERVER while the server runs). */
    public static String fingerprint() throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection(System.getProperty("it.query.db.url"), "query", "query");
             Statement st = c.createStatement()) {
            for (String table : List.of("users", "user_profiles", "orders", "order_items", "products", "departments", "employees", "login_logs")) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(LENGTH(CAST(id AS VARCHAR))) FROM " + table)) {
                    rs.next();
                    out.append(table).append('=').append(rs.getLong(1)).append('/').append(rs.getLong(2)).append(';');
                }
            }
        }
        return out.toString();
    }
}
