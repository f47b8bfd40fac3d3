package dev.switchboard.sql.guard;

import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;

import java.util.Map;

/**
 * A statement the guard will not run: the query dialect's -31006 Query Error, with the statement and a stable
 * {@code reason} a client can switch on (the message is for people).
 */
final class Refusal {

    private Refusal() {
    }

    static QueryException of(String sql, String reason, String message) {
        return new QueryException(QueryErrorCode.QUERY, "查询被拒绝：" + message, Map.of("sql", sql, "reason", reason));
    }
}
