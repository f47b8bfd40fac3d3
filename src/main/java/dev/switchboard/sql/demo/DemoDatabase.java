package dev.switchboard.sql.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo query database of the query dialect (users, orders, departments, employees, ...), loaded from
 * {@code sql/demo/schema.sql} and {@code sql/demo/data.sql}; the same scripts serve H2 (MySQL mode) and MariaDB/MySQL.
 */
public final class DemoDatabase {

    private static final List<String> SCRIPTS = List.of("sql/demo/schema.sql", "sql/demo/data.sql");

    private DemoDatabase() {
    }

    /** Creates the demo tables and rows in the connection's current, empty database. */
    public static void load(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String script : SCRIPTS) {
                for (String sql : statements(read(script))) {
                    statement.execute(sql);
                }
            }
        }
    }

    /** The scripts end every statement with ';' at the end of a line and hold no ';' elsewhere at a line end. */
    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                statements.add(current.substring(0, current.lastIndexOf(";")));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            throw new IllegalStateException("script ends inside a statement: " + current);
        }
        return statements;
    }

    private static String read(String resource) {
        try (InputStream in = DemoDatabase.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
