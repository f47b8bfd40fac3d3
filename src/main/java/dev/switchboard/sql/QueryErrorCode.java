package dev.switchboard.sql;

/** The error codes of seed 000's table that the query service produces, with the seed's names. */
public enum QueryErrorCode {
    INVALID_PARAMS(-32602, "Invalid Params"),
    TIMEOUT(-32002, "Timeout Error"),
    AUTHORIZATION(-31001, "Authorization Error"),
    DATABASE(-31003, "Database Error"),
    SQL(-31004, "SQL Error"),
    QUERY(-31006, "Query Error");

    private final int code;
    private final String seedName;

    QueryErrorCode(int code, String seedName) {
        this.code = code;
        this.seedName = seedName;
    }

    public int code() {
        return code;
    }

    public String seedName() {
        return seedName;
    }
}
