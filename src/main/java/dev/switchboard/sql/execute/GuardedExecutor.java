package dev.switchboard.sql.execute;

import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.guard.GuardedSql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs a statement the guard accepted: in a read-only transaction (enforced by the server on MySQL and MariaDB,
 * see {@link QueryDatabaseKind#begin}) that is always rolled back, with a time limit
 * enforced by the driver and, where the server offers one, by the server, reading at most one row past the
 * window and no more rows than fit the response limit (the query dialect's default: 100 MB, measured as their JSON rendering). Failures carry the query dialect's codes: -32002 on timeout, -31004 for the database's own SQL errors,
 * -31003 when the database cannot be reached.
 */
public final class GuardedExecutor {

    /** The query dialect: 查询超时时间 300 秒. */
    public static final int MAX_TIMEOUT_SECONDS = 300;
    /** The query dialect: 最大响应大小 100MB. */
    public static final long DEFAULT_MAX_RESPONSE_BYTES = 100L * 1024 * 1024;

    /** Server-side "statement ran too long" errors: MariaDB max_statement_time, MySQL MAX_EXECUTION_TIME, query killed. */
    private static final Set<Integer> TIMEOUT_ERRNOS = Set.of(1969, 3024, 1317);

    private final QueryConnectionSource connections;
    private final long maxResponseBytes;

    /** With the dialect's response limit. */
    public GuardedExecutor(QueryConnectionSource connections) {
        this(connections, DEFAULT_MAX_RESPONSE_BYTES);
    }

    /**
     * @param maxResponseBytes rows stop (and the result is {@code truncated}) before their JSON rendering would pass
     *                         this size, however many the window allows
     */
    public GuardedExecutor(QueryConnectionSource connections, long maxResponseBytes) {
        if (maxResponseBytes < 1) {
            throw new IllegalArgumentException("the response limit must be positive: " + maxResponseBytes);
        }
        this.connections = connections;
        this.maxResponseBytes = maxResponseBytes;
    }

    public QueryResult execute(GuardedSql guarded, int timeoutSeconds) {
        if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            throw new QueryException(QueryErrorCode.INVALID_PARAMS, "timeout 须在 1 到 " + MAX_TIMEOUT_SECONDS + " 秒之间",
                    Map.of("timeout", timeoutSeconds));
        }
        long started = System.nanoTime();
        try (Connection connection = connections.open()) {
            QueryDatabaseKind kind = QueryDatabaseKind.of(connection.getMetaData());
            kind.begin(connection);
            try {
                return run(connection, kind, guarded, timeoutSeconds, started, maxResponseBytes);
            } catch (SQLException e) {
                throw failure(guarded, timeoutSeconds, started, e);
            } finally {
                kind.end(connection);
            }
        } catch (SQLException e) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("mysql_error", String.valueOf(e.getMessage()));
            data.put("mysql_errno", e.getErrorCode());
            throw new QueryException(QueryErrorCode.DATABASE, "数据库连接失败", data, e);
        }
    }

    private static QueryResult run(Connection connection, QueryDatabaseKind kind, GuardedSql guarded, int timeoutSeconds,
                                   long started, long maxResponseBytes) throws SQLException {
        String sql = kind.withServerTimeout(guarded.sql(), timeoutSeconds);
        try (Statement statement = connection.createStatement()) {
            // the guard checked the text as it is; the driver must not rewrite JDBC escapes ({fn ...}) in it
            statement.setEscapeProcessing(false);
            statement.setQueryTimeout(timeoutSeconds);
            statement.setMaxRows(guarded.rowLimit() + 1);
            // execute, not executeQuery: mysql-connector-j refuses executeQuery for "SET STATEMENT ... FOR SELECT"
            if (!statement.execute(sql)) {
                throw new SQLException("the statement produced no result set");
            }
            try (ResultSet rs = statement.getResultSet()) {
                ResultSetMetaData meta = rs.getMetaData();
                List<QueryColumn> columns = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    columns.add(new QueryColumn(meta.getColumnLabel(i), meta.getColumnTypeName(i).toLowerCase(Locale.ROOT)));
                }
                List<List<Object>> rows = new ArrayList<>();
                boolean truncated = false;
                long bytes = 2;
                while (rs.next()) {
                    if (rows.size() == guarded.rowLimit()) {
                        truncated = true;
                        break;
                    }
                    List<Object> row = new ArrayList<>(columns.size());
                    long rowBytes = 3;
                    for (int i = 1; i <= columns.size(); i++) {
                        Object value = JdbcValues.read(rs, i);
                        row.add(value);
                        rowBytes += JdbcValues.jsonBytes(columns.get(i - 1).name()) + 2 + JdbcValues.jsonBytes(value);
                    }
                    if (bytes + rowBytes > maxResponseBytes) {
                        truncated = true;
                        break;
                    }
                    bytes += rowBytes;
                    rows.add(Collections.unmodifiableList(row));
                }
                return new QueryResult(columns, rows, Duration.ofNanos(System.nanoTime() - started), truncated);
            }
        }
    }

    private static QueryException failure(GuardedSql guarded, int timeoutSeconds, long started, SQLException e) {
        double elapsed = Math.round((System.nanoTime() - started) / 1e7) / 100.0;
        if (e instanceof SQLTimeoutException || TIMEOUT_ERRNOS.contains(e.getErrorCode())) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("timeout", timeoutSeconds);
            data.put("elapsed", elapsed);
            return new QueryException(QueryErrorCode.TIMEOUT, "查询超时", data, e);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("sql", guarded.sql());
        data.put("mysql_error", String.valueOf(e.getMessage()));
        data.put("mysql_errno", e.getErrorCode());
        return new QueryException(QueryErrorCode.SQL, "SQL 执行错误", data, e);
    }
}
