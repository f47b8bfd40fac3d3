package dev.switchboard.sql.guard;

import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.UserVariable;
import net.sf.jsqlparser.expression.VariableAssignment;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.Offset;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.WithItem;

import java.util.Collections;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Decides whether a statement may run against the query database, whoever wrote it (the LLM or a caller), and
 * rewrites it to the caller's row window. Accepted: exactly one SELECT (plain, joins, subqueries, CTEs, set
 * operations) over tables the caller may read. Refused: everything else, each with the query dialect's code: -31004 when
 * it does not parse, -31001 when a table is not readable, -31006 (with a {@code reason}) for what is never allowed.
 * <p>
 * The statement that runs is the parser's own rendering of what was checked, never the caller's text, so
 * nothing the parser skipped can reach the database.
 */
public final class SqlGuard {

    static final Set<String> SYSTEM_SCHEMAS = Set.of("information_schema", "mysql", "performance_schema", "sys");

    /** Functions that wait, lock, touch files, sessions or sequences (MySQL/MariaDB and H2). */
    static final Set<String> FORBIDDEN_FUNCTIONS = Set.of(
            "SLEEP", "BENCHMARK", "LOAD_FILE",
            "GET_LOCK", "RELEASE_LOCK", "RELEASE_ALL_LOCKS", "IS_FREE_LOCK", "IS_USED_LOCK",
            "MASTER_POS_WAIT", "SOURCE_POS_WAIT", "MASTER_GTID_WAIT", "WAIT_FOR_EXECUTED_GTID_SET",
            "WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS", "SYS_EXEC", "SYS_EVAL",
            "FILE_READ", "FILE_WRITE", "CSVREAD", "CSVWRITE", "LINK_SCHEMA", "DATABASE_PATH",
            "CANCEL_SESSION", "ABORT_SESSION", "SET", "NEXTVAL", "SETVAL", "LASTVAL");

    /** Longer statements are refused before parsing: no question needs them, and parsing time grows with length. */
    static final int MAX_SQL_LENGTH = 100_000;
    /** A statement the parser cannot settle in this time is refused (deeply nested input makes it backtrack). */
    static final Duration PARSE_TIMEOUT = Duration.ofSeconds(5);

    private final String databaseName;
    private final Supplier<Set<String>> baseTables;
    private final ExecutorService parserThreads;

    /**
     * @param databaseName  the query database's name; the only schema qualifier allowed on a table
     * @param baseTables    the query database's table names (lower case), so a CTE cannot hide one of them
     * @param parserThreads where the parser runs under its time limit (a managed executor in the server; without
     *                      one JSqlParser starts a new thread for every statement)
     */
    public SqlGuard(String databaseName, Supplier<Set<String>> baseTables, ExecutorService parserThreads) {
        this.databaseName = databaseName;
        this.baseTables = baseTables;
        this.parserThreads = parserThreads;
    }

    public GuardedSql check(String sql, Permissions permissions, RowWindow window) {
        if (sql == null || sql.isBlank()) {
            throw Refusal.of(String.valueOf(sql), "empty", "没有 SQL 语句");
        }
        if (sql.length() > MAX_SQL_LENGTH) {
            throw Refusal.of(sql.substring(0, 200) + "...", "too_long", "语句超过 " + MAX_SQL_LENGTH + " 个字符");
        }
        try {
            return checkParsed(sql, permissions, window);
        } catch (QueryException e) {
            throw e;
        } catch (RuntimeException e) {
            // a parser tree the guard does not understand is refused, never waved through
            throw Refusal.of(sql, "unsupported", "无法检查的语句结构");
        }
    }

    private GuardedSql checkParsed(String sql, Permissions permissions, RowWindow window) {
        Select select = parseSingleSelect(sql, SqlText.withoutComments(sql));
        List<Object> nodes = SqlTree.nodes(select);
        refuseForbiddenNodes(sql, nodes);
        Set<String> tables = referencedTables(sql, nodes);
        requireReadable(tables, permissions);
        int rowLimit = applyWindow(sql, select, window);
        return new GuardedSql(select.toString(), tables, rowLimit);
    }

    private Select parseSingleSelect(String sql, String code) {
        Statements statements;
        try {
            statements = CCJSqlParserUtil.parseStatements(code, parserThreads, parser -> parser.withTimeOut(PARSE_TIMEOUT.toMillis()));
        } catch (JSQLParserException e) {
            if (e.getCause() instanceof TimeoutException) {
                throw Refusal.of(sql, "too_complex", "语句过于复杂，无法在时限内解析");
            }
            throw syntaxError(sql, code, e);
        }
        if (statements == null || statements.isEmpty()) {
            throw Refusal.of(sql, "empty", "没有 SQL 语句");
        }
        if (statements.size() > 1) {
            throw Refusal.of(sql, "multiple_statements", "只允许一条语句");
        }
        Statement statement = statements.get(0);
        if (!(statement instanceof PlainSelect || statement instanceof SetOperationList
                || statement instanceof ParenthesedSelect)) {
            throw Refusal.of(sql, "not_select", "只允许 SELECT 查询，收到 " + statement.getClass().getSimpleName());
        }
        return (Select) statement;
    }

    private static QueryException syntaxError(String sql, String code, JSQLParserException e) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("sql", sql);
        Integer position = code.equals(sql) ? position(code, e) : null;
        if (position != null) {
            data.put("position", position);
        }
        return new QueryException(QueryErrorCode.SQL, "SQL 语法错误", data, e);
    }

    /** 0-based index of the token the parser stopped at, as in the dialect's example ({@code position: 9}). */
    private static Integer position(String code, JSQLParserException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ParseException pe && pe.currentToken != null) {
                Token at = pe.currentToken.next != null ? pe.currentToken.next : pe.currentToken;
                int index = 0;
                for (int line = 1; line < at.beginLine && index >= 0; line++) {
                    index = code.indexOf('\n', index) + 1;
                }
                return index < 0 ? null : Math.min(code.length(), index + Math.max(0, at.beginColumn - 1));
            }
        }
        return null;
    }

    private static void refuseForbiddenNodes(String sql, List<Object> nodes) {
        for (Object node : nodes) {
            if (node instanceof Statement && !(node instanceof Select)) {
                throw Refusal.of(sql, "not_select", "不允许嵌套的 " + node.getClass().getSimpleName() + " 语句");
            }
            if (node instanceof PlainSelect plain
                    && ((plain.getIntoTables() != null && !plain.getIntoTables().isEmpty()) || plain.getIntoTempTable() != null)) {
                throw Refusal.of(sql, "into", "不允许 SELECT ... INTO");
            }
            if (node instanceof Select s && (s.getForMode() != null || s.getForUpdateTable() != null || s.getForClause() != null)) {
                throw Refusal.of(sql, "locking_read", "不允许加锁读取（FOR UPDATE / LOCK IN SHARE MODE）");
            }
            // a TableFunction is also a Function; it is refused whatever its name
            if (node instanceof TableFunction) {
                throw Refusal.of(sql, "table_function", "不允许表函数");
            }
            if (node instanceof Function f) {
                refuseForbiddenFunction(sql, f.getMultipartName() != null ? f.getMultipartName() : Collections.singletonList(f.getName()));
            }
            if (node instanceof AnalyticExpression a) {
                refuseForbiddenFunction(sql, Collections.singletonList(a.getName()));
            }
            if (node instanceof VariableAssignment) {
                throw Refusal.of(sql, "variable_assignment", "不允许给变量赋值");
            }
            if (node instanceof UserVariable) {
                throw Refusal.of(sql, "variable", "不允许使用 @ 变量");
            }
            if (node instanceof JdbcParameter || node instanceof JdbcNamedParameter) {
                throw Refusal.of(sql, "parameter", "语句中不能有参数占位符");
            }
            if (node instanceof NextValExpression) {
                throw Refusal.of(sql, "sequence", "不允许推进序列");
            }
        }
    }

    private static void refuseForbiddenFunction(String sql, List<String> nameParts) {
        if (nameParts.isEmpty() || nameParts.get(0) == null) {
            throw Refusal.of(sql, "forbidden_function", "无法识别的函数");
        }
        if (nameParts.size() > 1) {
            throw Refusal.of(sql, "forbidden_function", "不允许带库名的函数 " + String.join(".", nameParts));
        }
        String name = unquote(nameParts.get(0)).toUpperCase(Locale.ROOT);
        if (FORBIDDEN_FUNCTIONS.contains(name)) {
            throw Refusal.of(sql, "forbidden_function", "不允许函数 " + name);
        }
    }

    private Set<String> referencedTables(String sql, List<Object> nodes) {
        Set<String> cteNames = new TreeSet<>();
        for (Object node : nodes) {
            if (node instanceof WithItem<?> with) {
                cteNames.add(with.getUnquotedAliasName().toLowerCase(Locale.ROOT));
            }
        }
        Set<String> tables = new TreeSet<>();
        for (Object node : nodes) {
            if (node instanceof Table table) {
                String name = tableName(sql, table);
                if (name == null) {
                    continue;
                }
                if (cteNames.contains(name)) {
                    // CTE scoping differs between nesting levels and servers; a CTE may therefore never share a table's name
                    if (baseTables.get().contains(name)) {
                        throw Refusal.of(sql, "cte_shadows_table", "公用表表达式不能与数据表同名：" + name);
                    }
                    continue;
                }
                tables.add(name);
            }
        }
        return tables;
    }

    /** The referenced table's lower-case name, or null for MySQL's DUAL; refuses system and foreign schemas. */
    private String tableName(String sql, Table table) {
        String database = table.getUnquotedDatabaseName();
        String schema = table.getUnquotedSchemaName();
        for (String qualifier : new String[]{database, schema}) {
            if (qualifier != null && SYSTEM_SCHEMAS.contains(qualifier.toLowerCase(Locale.ROOT))) {
                throw Refusal.of(sql, "system_schema", "不允许访问系统库 " + qualifier);
            }
        }
        if (database != null || (schema != null && !schema.equalsIgnoreCase(databaseName))) {
            throw Refusal.of(sql, "other_database", "只能查询当前数据库的表：" + table.getFullyQualifiedName());
        }
        String name = unquote(table.getName()).toLowerCase(Locale.ROOT);
        return schema == null && name.equals("dual") ? null : name;
    }

    private static void requireReadable(Set<String> tables, Permissions permissions) {
        for (String table : tables) {
            if (!permissions.canRead(table)) {
                Map<String, Object> data = new LinkedHashMap<>();
                data.put("required_permission", Permissions.readPermission(table));
                data.put("user_permissions", permissions.sorted());
                throw new QueryException(QueryErrorCode.AUTHORIZATION, "权限不足", data);
            }
        }
    }

    /**
     * Puts the caller's window over the statement's own LIMIT/OFFSET (rows [O, O+L) of the statement, then the
     * window inside those), and asks for one row more when more could exist, to detect truncation.
     */
    private static int applyWindow(String sql, Select select, RowWindow window) {
        if (select.getFetch() != null || select.getLimitBy() != null
                || (select instanceof PlainSelect plain && plain.getTop() != null)) {
            throw Refusal.of(sql, "unsupported_limit", "只支持 LIMIT/OFFSET 限制行数");
        }
        long ownOffset = 0;
        Long ownCount = null;
        Limit own = select.getLimit();
        if (own != null) {
            if (!own.isLimitAll() && !own.isLimitNull() && own.getRowCount() != null) {
                ownCount = literal(sql, own.getRowCount());
            }
            if (own.getOffset() != null) {
                ownOffset = literal(sql, own.getOffset());
            }
        }
        if (select.getOffset() != null) {
            ownOffset = literal(sql, select.getOffset().getOffset());
        }
        long start = ownOffset + window.offset();
        long available = ownCount == null ? Long.MAX_VALUE : Math.max(0, ownCount - window.offset());
        int rowLimit = (int) Math.min(window.limit(), available);
        long fetch = available > rowLimit ? rowLimit + 1L : rowLimit;
        select.setLimit(new Limit().withRowCount(new LongValue(fetch)));
        select.setOffset(start > 0 ? new Offset().withOffset(new LongValue(start)) : null);
        return rowLimit;
    }

    private static long literal(String sql, Expression expression) {
        if (expression instanceof LongValue value && value.getValue() >= 0) {
            return value.getValue();
        }
        throw Refusal.of(sql, "non_literal_limit", "LIMIT/OFFSET 只能是非负整数常量");
    }

    static String unquote(String identifier) {
        String s = identifier.strip();
        if (s.length() >= 2) {
            char first = s.charAt(0);
            char last = s.charAt(s.length() - 1);
            if ((first == '`' && last == '`') || (first == '"' && last == '"') || (first == '[' && last == ']')) {
                return s.substring(1, s.length() - 1);
            }
        }
        return s;
    }
}
