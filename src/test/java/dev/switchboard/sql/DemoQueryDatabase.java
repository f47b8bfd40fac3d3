package dev.switchboard.sql;

import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.sql.demo.DemoDatabase;
import dev.switchboard.sql.execute.JdbcQueryConnectionSource;
import org.junit.jupiter.api.Assumptions;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A fresh query database holding the demo schema and rows, on H2 (MySQL mode) or on the test MariaDB
 * ({@code it.mariadb.url}); a MariaDB database is dropped on close.
 */
public final class DemoQueryDatabase implements AutoCloseable {

    private final TestDatabase.Kind kind;
    private final String name;
    private final JdbcQueryConnectionSource source;

    private DemoQueryDatabase(TestDatabase.Kind kind, String name, JdbcQueryConnectionSource source) {
        this.kind = kind;
        this.name = name;
        this.source = source;
    }

    public static Stream<TestDatabase.Kind> kinds() {
        return Stream.of(TestDatabase.Kind.H2, TestDatabase.Kind.MARIADB);
    }

    public static DemoQueryDatabase open(TestDatabase.Kind kind) throws SQLException {
        String name = "sbsql_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        JdbcQueryConnectionSource source;
        if (kind == TestDatabase.Kind.H2) {
            source = new JdbcQueryConnectionSource("jdbc:h2:mem:" + name + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1", "sa", "");
        } else {
            String server = TestDatabase.mariadbServerUrl();
            Assumptions.assumeFalse(server.isBlank(), "MariaDB tests switched off (-Dit.mariadb.url is empty)");
            try (Connection c = DriverManager.getConnection(server, "root", "")) {
                c.createStatement().execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
            }
            source = new JdbcQueryConnectionSource(server + name, "root", "");
        }
        DemoQueryDatabase db = new DemoQueryDatabase(kind, name, source);
        try (Connection c = source.open()) {
            DemoDatabase.load(c);
        }
        return db;
    }

    public TestDatabase.Kind kind() {
        return kind;
    }

    /** The database (MariaDB) or catalog (H2) name, the one schema qualifier the guard allows. */
    public String name() {
        return name;
    }

    public JdbcQueryConnectionSource source() {
        return source;
    }

    /** SHA-256 over every table's name, column names and rows: any write or DDL changes it. */
    public String checksum() throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (Connection c = source.open(); Statement st = c.createStatement()) {
            DatabaseMetaData meta = c.getMetaData();
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = meta.getTables(c.getCatalog(), kind == TestDatabase.Kind.H2 ? "public" : null, "%", new String[]{"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME").toLowerCase());
                }
            }
            tables.sort(null);
            for (String table : tables) {
                digest.update(("table " + table + "\n").getBytes());
                try (ResultSet rs = st.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
                    int n = rs.getMetaData().getColumnCount();
                    for (int i = 1; i <= n; i++) {
                        digest.update((rs.getMetaData().getColumnLabel(i) + ",").getBytes());
                    }
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) {
                            digest.update((rs.getString(i) + "\u0001").getBytes(StandardCharsets.UTF_8));
                        }
                        digest.update((byte) '\n');
                    }
                }
            }
            digest.update(("tables " + tables.size()).getBytes());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    @Override
    public void close() throws SQLException {
        if (kind == TestDatabase.Kind.MARIADB) {
            try (Connection c = DriverManager.getConnection(TestDatabase.mariadbServerUrl(), "root", "")) {
                c.createStatement().execute("DROP DATABASE IF EXISTS " + name);
            }
        } else {
            try (Connection c = source.open()) {
                c.createStatement().execute("SHUTDOWN");
            }
        }
    }
}
