package dev.switchboard.sql.guard;

import dev.switchboard.sql.Permissions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The statement corpora in src/test/resources/sql: hostile statements with their expected refusal, legitimate SELECTs. */
public final class SqlCorpus {

    /** One parser pool for every guard of the tests, as the server shares its managed executor. */
    public static final ExecutorService PARSER_THREADS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "sql-parser");
        t.setDaemon(true);
        return t;
    });

    /** The demo database's tables. */
    public static final Set<String> DEMO_TABLES = Set.of("departments", "users", "user_profiles", "employees",
            "products", "orders", "order_items", "login_logs");

    /** The caller of the hostile corpus: employees, departments and login_logs are forbidden. */
    public static final Permissions HOSTILE_CALLER = Permissions.of("table:users:read", "table:user_profiles:read",
            "table:orders:read", "table:order_items:read", "table:products:read", "schema:read");

    /** The caller of the legitimate corpus: everything but login_logs. */
    public static final Permissions LEGITIMATE_CALLER = Permissions.of("table:users:read", "table:user_profiles:read",
            "table:orders:read", "table:order_items:read", "table:products:read", "table:employees:read",
            "table:departments:read");

    public record Hostile(int line, int code, String reason, String sql) {
        @Override
        public String toString() {
            return "line " + line + ": " + sql;
        }
    }

    public record Legitimate(int line, String sql) {
        @Override
        public String toString() {
            return "line " + line + ": " + sql;
        }
    }

    private SqlCorpus() {
    }

    public static List<Hostile> hostile() {
        List<Hostile> statements = new ArrayList<>();
        List<String> lines = lines("sql/hostile-statements.txt");
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t", 3);
            statements.add(new Hostile(i + 1, Integer.parseInt(fields[0]), fields[1].equals("-") ? null : fields[1], decode(fields[2])));
        }
        return statements;
    }

    public static List<Legitimate> legitimate() {
        List<Legitimate> statements = new ArrayList<>();
        List<String> lines = lines("sql/legitimate-selects.txt");
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.isBlank() && !line.startsWith("#")) {
                statements.add(new Legitimate(i + 1, decode(line)));
            }
        }
        return statements;
    }

    private static String decode(String sql) {
        return sql.replace("⏎", "\n").replace("⇥", "\t");
    }

    private static List<String> lines(String resource) {
        try (InputStream in = SqlCorpus.class.getClassLoader().getResourceAsStream(resource)) {
            return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
