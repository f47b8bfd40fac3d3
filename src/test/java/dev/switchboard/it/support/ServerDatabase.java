package dev.switchboard.it.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;

/**
 * A look into the test server's own database (H2 with AUTO_SERVER), to check what is stored; {@link #update} only
 * to move a stored time into the past, where waiting would take too long.
 */
public final class ServerDatabase {

    private ServerDatabase() {
    }

    public static String queryString(String sql) {
        String url = System.getProperty("it.db.url");
        try (Connection c = DriverManager.getConnection(url, "switchboard", "switchboard");
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (Exception e) {
            throw new AssertionError("Could not read the server database: " + e, e);
        }
    }

    public static int update(String sql) {
        String url = System.getProperty("it.db.url");
        try (Connection c = DriverManager.getConnection(url, "switchboard", "switchboard")) {
            return c.createStatement().executeUpdate(sql);
        } catch (Exception e) {
            throw new AssertionError("Could not change the server database: " + e, e);
        }
    }

    /** Every column of every row of a table as text, one row a line: to look for what must not be stored. */
    public static String dump(String table) {
        String url = System.getProperty("it.db.url");
        try (Connection c = DriverManager.getConnection(url, "switchboard", "switchboard");
             ResultSet rs = c.createStatement().executeQuery("select * from " + table)) {
            StringBuilder text = new StringBuilder();
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    text.append(rs.getString(i)).append('|');
                }
                text.append('\n');
            }
            return text.toString();
        } catch (Exception e) {
            throw new AssertionError("Could not read the server database: " + e, e);
        }
    }
}
