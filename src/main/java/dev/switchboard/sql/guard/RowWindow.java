package dev.switchboard.sql.guard;

import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;

import java.util.Map;

/**
 * The rows a caller asked for: the query dialect's {@code options.offset} (default 0) and {@code options.limit} (default 20),
 * the limit capped at the dialect's 10000 returned rows.
 */
public record RowWindow(long offset, int limit) {

    public static final int MAX_ROWS = 10_000;
    public static final RowWindow DEFAULT = new RowWindow(0, 20);

    public RowWindow {
        if (offset < 0 || limit < 1) {
            throw new QueryException(QueryErrorCode.INVALID_PARAMS, "limit 须为正数，offset 不能为负数",
                    Map.of("limit", limit, "offset", offset));
        }
        limit = Math.min(limit, MAX_ROWS);
    }
}
