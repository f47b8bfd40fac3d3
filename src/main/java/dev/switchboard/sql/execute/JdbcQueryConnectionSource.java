package dev.switchboard.sql.execute;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Connections to the query database by JDBC URL. On MySQL/MariaDB URLs multi-statement execution is forced off
 * ({@code allowMultiQueries=false}, whatever the configured URL says), so even a statement that slipped past the
 * guard could not stack a second one.
 */
public record JdbcQueryConnectionSource(String url, String user, String password) implements QueryConnectionSource {

    public JdbcQueryConnectionSource {
        url = withoutMultiQueries(url);
    }

    @Override
    public Connection open() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    static String withoutMultiQueries(String url) {
        if (!url.startsWith("jdbc:mysql:") && !url.startsWith("jdbc:mariadb:")) {
            return url;
        }
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        String kept = query < 0 ? "" : Arrays.stream(url.substring(query + 1).split("&"))
                .filter(p -> !p.isEmpty() && !p.toLowerCase(Locale.ROOT).startsWith("allowmultiqueries="))
                .collect(Collectors.joining("&"));
        return base + "?" + (kept.isEmpty() ? "" : kept + "&") + "allowMultiQueries=false";
    }
}
