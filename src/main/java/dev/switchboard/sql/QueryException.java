package dev.switchboard.sql;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A failure the caller is told about in the query dialect's error shape: {@code code}, {@code message}, {@code data}.
 * The data keys are the dialect's (e.g. {@code required_permission}, {@code mysql_errno}); their order is kept.
 */
public class QueryException extends RuntimeException {

    private final QueryErrorCode code;
    private final Map<String, Object> data;

    public QueryException(QueryErrorCode code, String message, Map<String, Object> data) {
        this(code, message, data, null);
    }

    public QueryException(QueryErrorCode code, String message, Map<String, Object> data, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }

    public QueryErrorCode code() {
        return code;
    }

    public Map<String, Object> data() {
        return data;
    }
}
