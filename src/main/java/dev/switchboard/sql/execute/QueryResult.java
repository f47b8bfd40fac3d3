package dev.switchboard.sql.execute;

import java.time.Duration;
import java.util.List;

/**
 * The rows of a guarded SELECT, in column order; {@code truncated} says more rows existed than the window allowed.
 * Values are JSON-friendly Java types (numbers, strings, booleans, java.time values, byte arrays) or null.
 */
public record QueryResult(List<QueryColumn> columns, List<List<Object>> rows, Duration executionTime, boolean truncated) {

    public QueryResult {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    public int rowCount() {
        return rows.size();
    }
}
