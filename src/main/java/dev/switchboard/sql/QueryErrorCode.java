package dev.switchboard.sql;

/** The error codes of seed 000's table that the query service produces (the seed's names in the comments). */
public enum QueryErrorCode {
    /** Invalid Params: a limit, offset or timeout outside its range. */
    INVALID_PARAMS(-32602),
    /** Timeout Error: the statement ran longer than the caller's timeout. */
    TIMEOUT(-32002),
    /** Authorization Error: a table the caller may not read. */
    AUTHORIZATION(-31001),
    /** Database Error: the query database cannot be reached or described. */
    DATABASE(-31003),
    /** SQL Error: the statement does not parse, or the database refused it. */
    SQL(-31004),
    /** Query Error: a statement the guard never runs, with a {@code reason}. */
    QUERY(-31006);

    private final int code;

    QueryErrorCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
