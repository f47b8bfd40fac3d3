package dev.switchboard.sql.execute;

import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.sql.DemoQueryDatabase;
import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.catalog.SchemaCatalog;
import dev.switchboard.sql.guard.GuardedSql;
import dev.switchboard.sql.guard.RowWindow;
import dev.switchboard.sql.guard.SqlCorpus;
import dev.switchboard.sql.guard.SqlGuard;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Guard and executor together on the demo database, on H2 and on MariaDB. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GuardedExecutorTest {

    /** One demo database per kind for the whole class, opened on first use so a switched-off MariaDB skips only its cases. */
    private final Map<TestDatabase.Kind, DemoQueryDatabase> databases = new EnumMap<>(TestDatabase.Kind.class);

    @AfterAll
    void closeDatabases() throws SQLException {
        for (DemoQueryDatabase db : databases.values()) {
            db.close();
        }
    }

    private DemoQueryDatabase db(TestDatabase.Kind kind) throws SQLException {
        DemoQueryDatabase db = databases.get(kind);
        if (db == null) {
            db = DemoQueryDatabase.open(kind);
            databases.put(kind, db);
        }
        return db;
    }

    private QueryResult run(TestDatabase.Kind kind, String sql, Permissions permissions, RowWindow window) throws SQLException {
        DemoQueryDatabase db = db(kind);
        GuardedSql guarded = new SqlGuard(db.name(), () -> SqlCorpus.DEMO_TABLES, SqlCorpus.PARSER_THREADS).check(sql, permissions, window);
        return new GuardedExecutor(db.source()).execute(guarded, 30);
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void hostileCorpusIsRefusedAndLeavesTheDatabaseUnchanged(TestDatabase.Kind kind) throws Exception {
        String before = db(kind).checksum();
        List<String> accepted = new ArrayList<>();
        for (SqlCorpus.Hostile statement : SqlCorpus.hostile()) {
            try {
                run(kind, statement.sql(), SqlCorpus.HOSTILE_CALLER, RowWindow.DEFAULT);
                accepted.add(statement.toString());
            } catch (QueryException e) {
                assertEquals(statement.code(), e.code().code(), statement::toString);
            }
        }
        assertEquals(List.of(), accepted);
        assertEquals(before, db(kind).checksum());
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void legitimateCorpusRuns(TestDatabase.Kind kind) throws Exception {
        String before = db(kind).checksum();
        for (SqlCorpus.Legitimate statement : SqlCorpus.legitimate()) {
            try {
                QueryResult result = run(kind, statement.sql(), SqlCorpus.LEGITIMATE_CALLER, RowWindow.DEFAULT);
                assertTrue(result.rowCount() <= 20, statement::toString);
                assertFalse(result.columns().isEmpty(), statement::toString);
            } catch (QueryException e) {
                throw new AssertionError(statement + " -> " + e.code() + " " + e.data(), e);
            }
        }
        assertEquals(before, db(kind).checksum());
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void resultHasColumnsRowsAndPortableValues(TestDatabase.Kind kind) throws Exception {
        QueryResult result = run(kind, "SELECT id, name, status, created_at, phone FROM users WHERE id IN (1, 9) ORDER BY id",
                Permissions.of("table:users:read"), RowWindow.DEFAULT);
        assertEquals(List.of("id", "name", "status", "created_at", "phone"), result.columns().stream().map(QueryColumn::name).toList());
        assertEquals(2, result.rowCount());
        assertEquals(List.of(1L, "黄军", 1, LocalDateTime.of(2024, 2, 2, 9, 13), "13800000001"), result.rows().get(0));
        assertEquals(null, result.rows().get(1).get(4), "user 9 has no phone");
        assertFalse(result.truncated());
        assertTrue(result.executionTime().toNanos() > 0);
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void truncatedOnlyWhenMoreRowsExist(TestDatabase.Kind kind) throws Exception {
        Permissions admin = Permissions.of(Permissions.ADMIN);
        QueryResult cut = run(kind, "SELECT id FROM orders ORDER BY id", admin, RowWindow.DEFAULT);
        assertEquals(20, cut.rowCount());
        assertTrue(cut.truncated());
        QueryResult page = run(kind, "SELECT id FROM orders ORDER BY id", admin, new RowWindow(290, 20));
        assertEquals(10, page.rowCount());
        assertEquals(291L, page.rows().get(0).get(0));
        assertFalse(page.truncated());
        QueryResult whole = run(kind, "SELECT id FROM order_items", admin, new RowWindow(0, 50_000));
        assertEquals(750, whole.rowCount());
        assertFalse(whole.truncated());
        QueryResult ownLimit = run(kind, "SELECT id FROM departments ORDER BY id LIMIT 3", admin, RowWindow.DEFAULT);
        assertEquals(3, ownLimit.rowCount());
        assertFalse(ownLimit.truncated(), "the statement's own LIMIT is not a truncation");
    }

    /** Seed 000's response limit (100 MB) with a small one: the rows stop before it, and the result says it was cut. */
    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void rowsStopAtTheResponseLimit(TestDatabase.Kind kind) throws Exception {
        DemoQueryDatabase db = db(kind);
        GuardedSql guarded = new SqlGuard(db.name(), () -> SqlCorpus.DEMO_TABLES, SqlCorpus.PARSER_THREADS)
                .check("SELECT id, name, email FROM users ORDER BY id", SqlCorpus.HOSTILE_CALLER, new RowWindow(0, 100));
        QueryResult all = new GuardedExecutor(db.source()).execute(guarded, 30);
        assertEquals(100, all.rowCount());
        QueryResult cut = new GuardedExecutor(db.source(), 1000).execute(guarded, 30);
        assertTrue(cut.truncated());
        assertTrue(cut.rowCount() > 5 && cut.rowCount() < 30, "rows within 1000 bytes of JSON: " + cut.rowCount());
        assertEquals(all.rows().subList(0, cut.rowCount()), cut.rows());
        String json = dev.switchboard.sql.service.ResultFormat.JSON.render(cut).toString();
        assertTrue(json.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 1000, json.length() + " bytes");
        assertThrows(IllegalArgumentException.class, () -> new GuardedExecutor(db.source(), 0));
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void statementRunningTooLongIsStopped(TestDatabase.Kind kind) throws Exception {
        DemoQueryDatabase db = db(kind);
        GuardedSql slow = new SqlGuard(db.name(), () -> SqlCorpus.DEMO_TABLES, SqlCorpus.PARSER_THREADS).check(
                "SELECT COUNT(*) FROM order_items a, order_items b, order_items c WHERE a.quantity + b.quantity + c.quantity > 0",
                Permissions.of(Permissions.ADMIN), RowWindow.DEFAULT);
        long started = System.nanoTime();
        QueryException e = assertThrows(QueryException.class, () -> new GuardedExecutor(db.source()).execute(slow, 1));
        double seconds = (System.nanoTime() - started) / 1e9;
        assertEquals(QueryErrorCode.TIMEOUT, e.code());
        assertEquals(-32002, e.code().code());
        assertEquals(1, e.data().get("timeout"));
        assertTrue((double) e.data().get("elapsed") >= 0.9, e.data()::toString);
        assertTrue(seconds < 10, "stopped after " + seconds + " s");
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void databaseErrorCarriesSqlAndErrno(TestDatabase.Kind kind) throws Exception {
        QueryException e = assertThrows(QueryException.class,
                () -> run(kind, "SELECT no_such_column FROM users", Permissions.of(Permissions.ADMIN), RowWindow.DEFAULT));
        assertEquals(-31004, e.code().code());
        assertEquals("SQL 执行错误", e.getMessage());
        assertEquals("SELECT no_such_column FROM users LIMIT 21", e.data().get("sql"));
        assertTrue(e.data().get("mysql_error").toString().contains("no_such_column"), e.data()::toString);
        assertEquals(kind == TestDatabase.Kind.MARIADB ? 1054 : 42122, e.data().get("mysql_errno"));
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void writeThatBypassedTheGuardIsRefusedOrRolledBack(TestDatabase.Kind kind) throws Exception {
        DemoQueryDatabase db = db(kind);
        String before = db.checksum();
        GuardedSql forged = new GuardedSql("UPDATE users SET status = 0", Set.of("users"), 20);
        QueryException e = assertThrows(QueryException.class, () -> new GuardedExecutor(db.source()).execute(forged, 5));
        assertEquals(-31004, e.code().code());
        assertEquals(before, db.checksum());
    }

    /**
     * The server itself holds the transaction read-only: mysql-connector-j takes MariaDB for MySQL 5.5 and never
     * sends {@code setReadOnly} to it, so a write hidden behind a SELECT (a stored function) would otherwise reach
     * the tables and only a rollback would stand in the way.
     */
    @Test
    void mariaDbRunsTheStatementInAReadOnlyTransactionOfTheServer() throws Exception {
        DemoQueryDatabase db = db(TestDatabase.Kind.MARIADB);
        String before = db.checksum();
        try (Connection c = db.source().open()) {
            c.createStatement().execute("CREATE FUNCTION sneaky_write() RETURNS INT MODIFIES SQL DATA "
                    + "BEGIN UPDATE users SET status = 0; RETURN 1; END");
        }
        try {
            QueryException e = assertThrows(QueryException.class, () -> new GuardedExecutor(db.source())
                    .execute(new GuardedSql("SELECT sneaky_write()", Set.of(), 20), 5));
            assertEquals(-31004, e.code().code());
            assertEquals(1792, e.data().get("mysql_errno"), "refused by the server: " + e.data());
        } finally {
            try (Connection c = db.source().open()) {
                c.createStatement().execute("DROP FUNCTION sneaky_write");
            }
        }
        assertEquals(before, db.checksum());
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void guardKnowsTheTablesFromTheCatalog(TestDatabase.Kind kind) throws Exception {
        DemoQueryDatabase db = db(kind);
        SchemaCatalog catalog = new SchemaCatalog(db.source(), SchemaCatalog.DEFAULT_TTL, Clock.systemUTC());
        SqlGuard guard = new SqlGuard(db.name(), catalog::tableNames, SqlCorpus.PARSER_THREADS);
        QueryException e = assertThrows(QueryException.class, () -> guard.check(
                "WITH login_logs AS (SELECT 1 AS id) SELECT * FROM login_logs", SqlCorpus.HOSTILE_CALLER, RowWindow.DEFAULT));
        assertEquals("cte_shadows_table", e.data().get("reason"));
        QueryResult result = new GuardedExecutor(db.source()).execute(guard.check(
                "WITH spent AS (SELECT user_id, SUM(total_amount) AS total FROM orders GROUP BY user_id) SELECT COUNT(*) FROM spent",
                SqlCorpus.HOSTILE_CALLER, RowWindow.DEFAULT), 30);
        assertEquals(1, result.rowCount());
    }

    @Test
    void stackedStatementsAreRefusedByTheMariaDbConnectionItself() throws Exception {
        DemoQueryDatabase db = db(TestDatabase.Kind.MARIADB);
        JdbcQueryConnectionSource permissive = new JdbcQueryConnectionSource(db.source().url().replace("allowMultiQueries=false", "allowMultiQueries=true"),
                "root", "");
        assertTrue(permissive.url().endsWith("allowMultiQueries=false"), permissive.url());
        try (Connection c = permissive.open()) {
            assertThrows(SQLException.class, () -> c.createStatement().execute("SELECT 1; UPDATE users SET status = 0"));
        }
    }

    @Test
    void unreachableDatabaseIsADatabaseError() {
        GuardedSql guarded = new SqlGuard("demo", () -> SqlCorpus.DEMO_TABLES, SqlCorpus.PARSER_THREADS).check("SELECT 1", Permissions.of(), RowWindow.DEFAULT);
        QueryException e = assertThrows(QueryException.class, () -> new GuardedExecutor(
                new JdbcQueryConnectionSource("jdbc:mysql://127.0.0.1:1/none?connectTimeout=2000", "x", "")).execute(guarded, 5));
        assertEquals(-31003, e.code().code());
    }

    @Test
    void timeoutOutsideTheSeedsRangeIsInvalid() {
        GuardedSql guarded = new SqlGuard("demo", () -> SqlCorpus.DEMO_TABLES, SqlCorpus.PARSER_THREADS).check("SELECT 1", Permissions.of(), RowWindow.DEFAULT);
        GuardedExecutor executor = new GuardedExecutor(() -> {
            throw new SQLException("not reached");
        });
        assertEquals(-32602, assertThrows(QueryException.class, () -> executor.execute(guarded, 301)).code().code());
        assertEquals(-32602, assertThrows(QueryException.class, () -> executor.execute(guarded, 0)).code().code());
    }
}
