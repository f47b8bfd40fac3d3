package dev.switchboard.sql;

/** The query dialect's error table: every code the query service and its dialect produce (the dialect's names for them in the comments). */
public enum QueryErrorCode {
    /** Parse Error: a message that is not JSON. */
    PARSE(-32700),
    /** Invalid Request: JSON that is not a request of the dialect (no type, id or method), or too large. */
    INVALID_REQUEST(-32600),
    /** Method Not Found. */
    METHOD_NOT_FOUND(-32601),
    /** Invalid Params: a missing or malformed parameter; a limit, offset or timeout outside its range. */
    INVALID_PARAMS(-32602),
    /** Internal Error: a failure of ours the caller cannot fix. */
    INTERNAL(-32603),
    /** Server Error: the server cannot take the request now (shutting down, overloaded). */
    SERVER(-32000),
    /** Version Error: no protocol version in common, or a request before {@code protocol.negotiate}. */
    VERSION(-32001),
    /** Timeout Error: the statement ran longer than the caller's timeout. */
    TIMEOUT(-32002),
    /** Rate Limit Error: too many requests per minute or at once on one connection. */
    RATE_LIMIT(-32003),
    /** Authentication Error: no, a bad or an expired token. */
    AUTHENTICATION(-31000),
    /** Authorization Error: a table or an operation the caller may not use. */
    AUTHORIZATION(-31001),
    /** Session Error: an unknown, foreign or expired session. */
    SESSION(-31002),
    /** Database Error: the query database cannot be reached or described. */
    DATABASE(-31003),
    /** SQL Error: the statement does not parse, or the database refused it. */
    SQL(-31004),
    /** Schema Error: an unknown table. */
    SCHEMA(-31005),
    /** Query Error: a statement the guard never runs, with a {@code reason}; a question no SQL came from. */
    QUERY(-31006),
    /** LLM Error: the model could not be asked or gave no usable answer. */
    LLM(-31007);

    private final int code;

    QueryErrorCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
