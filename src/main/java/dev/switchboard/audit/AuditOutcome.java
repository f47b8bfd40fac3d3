package dev.switchboard.audit;

import jakarta.json.JsonObject;

/**
 * The words of the audit's {@code outcome} column, the same for every room that reports calls: {@code ok}, the
 * tool's own failure {@code tool_error}, or {@code error <JSON-RPC code>} for a call that got no result.
 */
public final class AuditOutcome {

    public static final String OK = "ok";
    public static final String TOOL_ERROR = "tool_error";

    private AuditOutcome() {
    }

    /** A result came back: {@code tool_error} when it says {@code isError}, else {@code ok}. */
    public static String ofResult(JsonObject result) {
        return result.getBoolean("isError", false) ? TOOL_ERROR : OK;
    }

    /** No result: the JSON-RPC error code the call ended with (the gateway's codes for backend failures). */
    public static String error(int code) {
        return "error " + code;
    }
}
