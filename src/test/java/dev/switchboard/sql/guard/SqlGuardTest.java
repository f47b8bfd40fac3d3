package dev.switchboard.sql.guard;

import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What the guard hands on: the tables, the rewritten window, and the seed's error data. */
class SqlGuardTest {

    private final SqlGuard guard = new SqlGuard("demo", () -> SqlCorpus.DEMO_TABLES, SqlCorpus.PARSER_THREADS);
    private final Permissions all = Permissions.of(Permissions.ADMIN);

    @Test
    void permissionErrorNamesTheMissingPermissionAndWhatTheCallerHas() {
        QueryException e = assertThrows(QueryException.class, () -> guard.check(
                "SELECT o.id FROM orders o JOIN users u ON u.id = o.user_id", Permissions.of("table:orders:read"), RowWindow.DEFAULT));
        assertEquals(QueryErrorCode.AUTHORIZATION, e.code());
        assertEquals(-31001, e.code().code());
        assertEquals("权限不足", e.getMessage());
        assertEquals("table:users:read", e.data().get("required_permission"));
        assertEquals(List.of("table:orders:read"), e.data().get("user_permissions"));
    }

    @Test
    void everyTableIsFoundWhereverItIs() {
        GuardedSql guarded = guard.check("""
                WITH big AS (SELECT user_id FROM orders WHERE total_amount > (SELECT AVG(price) FROM products))
                SELECT u.name, (SELECT COUNT(*) FROM order_items oi WHERE oi.order_id = u.id) AS n
                FROM users u JOIN (SELECT user_id FROM user_profiles) p ON p.user_id = u.id
                WHERE u.id IN (SELECT user_id FROM big) AND EXISTS (SELECT 1 FROM employees e WHERE e.user_id = u.id)
                UNION SELECT name, 0 FROM departments""", all, RowWindow.DEFAULT);
        assertEquals(Set.of("orders", "products", "order_items", "users", "user_profiles", "employees", "departments"),
                guarded.tables());
    }

    @Test
    void adminReadsEveryTableButNeverSystemSchemas() {
        assertEquals(Set.of("login_logs"), guard.check("SELECT * FROM login_logs", all, RowWindow.DEFAULT).tables());
        QueryException e = assertThrows(QueryException.class,
                () -> guard.check("SELECT * FROM information_schema.tables", all, RowWindow.DEFAULT));
        assertEquals("system_schema", e.data().get("reason"));
    }

    @Test
    void tableQualifiedByTheQueryDatabaseIsAllowed() {
        assertEquals(Set.of("users"), guard.check("SELECT * FROM demo.users", all, RowWindow.DEFAULT).tables());
        assertEquals(Set.of("users"), guard.check("SELECT * FROM `DEMO`.`users`", all, RowWindow.DEFAULT).tables());
    }

    @Test
    void defaultWindowAsksForOneRowMoreThanItReturns() {
        GuardedSql guarded = guard.check("SELECT id FROM users", all, RowWindow.DEFAULT);
        assertEquals("SELECT id FROM users LIMIT 21", guarded.sql());
        assertEquals(20, guarded.rowLimit());
    }

    @Test
    void windowOffsetIsAddedAndLimitCappedAtTenThousand() {
        GuardedSql guarded = guard.check("SELECT id FROM users ORDER BY id", all, new RowWindow(40, 50_000));
        assertEquals("SELECT id FROM users ORDER BY id LIMIT 10001 OFFSET 40", guarded.sql());
        assertEquals(RowWindow.MAX_ROWS, guarded.rowLimit());
    }

    @Test
    void windowFitsInsideTheStatementsOwnLimit() {
        // rows 10..14 of the statement; the window's rows 2..4 of those are 12..14, and no more can exist
        GuardedSql own = guard.check("SELECT id FROM users ORDER BY id LIMIT 5 OFFSET 10", all, new RowWindow(2, 20));
        assertEquals("SELECT id FROM users ORDER BY id LIMIT 3 OFFSET 12", own.sql());
        assertEquals(3, own.rowLimit());
        GuardedSql mysqlForm = guard.check("SELECT id FROM users ORDER BY id LIMIT 10, 100", all, new RowWindow(0, 20));
        assertEquals("SELECT id FROM users ORDER BY id LIMIT 21 OFFSET 10", mysqlForm.sql());
        GuardedSql beyond = guard.check("SELECT id FROM users LIMIT 5", all, new RowWindow(10, 20));
        assertEquals(0, beyond.rowLimit());
    }

    @Test
    void windowOfASetOperationCoversTheWholeUnion() {
        GuardedSql guarded = guard.check("SELECT id FROM users UNION SELECT user_id FROM orders", all, new RowWindow(0, 5));
        assertEquals("SELECT id FROM users UNION SELECT user_id FROM orders LIMIT 6", guarded.sql());
    }

    @Test
    void commentsDoNotReachTheDatabase() {
        GuardedSql guarded = guard.check("SELECT id /* 编号 */ FROM users -- 用户\nWHERE id = 1 # 一个", all, RowWindow.DEFAULT);
        assertEquals("SELECT id FROM users WHERE id = 1 LIMIT 21", guarded.sql());
    }

    @Test
    void nonLiteralLimitIsRefused() {
        QueryException e = assertThrows(QueryException.class,
                () -> guard.check("SELECT id FROM users LIMIT 1 + 1", all, RowWindow.DEFAULT));
        assertEquals("non_literal_limit", e.data().get("reason"));
    }

    @Test
    void syntaxErrorGivesThePosition() {
        QueryException e = assertThrows(QueryException.class, () -> guard.check("SELECT * FORM users", all, RowWindow.DEFAULT));
        assertEquals(-31004, e.code().code());
        assertEquals("SQL 语法错误", e.getMessage());
        assertEquals("SELECT * FORM users", e.data().get("sql"));
        // JSqlParser reads FORM as an alias of *, so the statement breaks at 'users'
        assertEquals(14, e.data().get("position"));
    }

    @Test
    void overlongStatementIsRefusedBeforeParsing() {
        String sql = "SELECT id FROM users WHERE id IN (" + "1, ".repeat(40_000) + "1)";
        QueryException e = assertThrows(QueryException.class, () -> guard.check(sql, all, RowWindow.DEFAULT));
        assertEquals("too_long", e.data().get("reason"));
    }

    @Test
    void invalidWindowIsAnInvalidParamsError() {
        QueryException e = assertThrows(QueryException.class, () -> new RowWindow(0, 0));
        assertEquals(-32602, e.code().code());
        assertThrows(QueryException.class, () -> new RowWindow(-1, 20));
    }
}
