package dev.switchboard.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;

/** Read-only look into the test server's own database (H2 with AUTO_SERVER), to check what is stored. */
final class ServerDatabase {

    private ServerDatabase() {
    }

    static String queryString(String sql) {
        String url = System.getProperty("it.db.url");
        try (Connection c = DriverManager.getConnection(url, "switchboard", "switchboard");
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (Exception e) {
            throw new AssertionError("Could not read the server database: " + e, e);
        }
    }
}
