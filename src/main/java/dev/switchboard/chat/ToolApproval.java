package dev.switchboard.chat;

import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * What became of a call that needed approval (the MCP client system's confirm step).
 *
 * @param arguments the arguments to run it with (the user's edited ones, or the model's); null unless approved
 * @param refusal   what the LLM reads instead of a result when the call did not run; null when approved
 */
public record ToolApproval(boolean approved, JsonObject arguments, JsonObject refusal) {

    static final String REJECTED = "tool_rejected";
    static final String TIMED_OUT = "approval_timeout";
    static final String ABANDONED = "run_stopped";
    static final String ORPHANED = "run_member_stopped";

    public static ToolApproval approve(JsonObject arguments) {
        return new ToolApproval(true, arguments, null);
    }

    public static ToolApproval refuse(JsonObject refusal) {
        return new ToolApproval(false, null, refusal);
    }

    /**
     * The audit decision of a call that did not run for want of approval: {@code rejected} (the user said no),
     * {@code approval_timeout} (nobody answered), {@code run_stopped} (the run ended while it waited), {@code run_member_stopped} (its member died while it waited).
     */
    String auditDecision() {
        String code = refusal != null && refusal.get("error") instanceof JsonObject error ? error.getString("code", null) : null;
        return REJECTED.equals(code) ? "rejected" : code == null ? "refused" : code;
    }

    /** The user said no: the LLM is told so in the chat API's tool error shape, so it can answer without the tool. */
    static JsonObject rejection(String displayName) {
        return error(REJECTED, "The user refused to run the tool '" + displayName + "'; it did not run.", displayName);
    }

    /** Nobody answered in time. */
    static JsonObject timeout(String displayName, java.time.Duration waited) {
        return error(TIMED_OUT, "Nobody approved the tool '" + displayName + "' within " + waited
                + "; the call was cancelled and did not run.", displayName);
    }

    /** The run stopped while the call waited (its stream's client went away, or the server is stopping). */
    static JsonObject abandoned(String displayName) {
        return error(ABANDONED, "The run stopped while the tool '" + displayName + "' waited for approval; it did not run.", displayName);
    }

    /** The member running the chat stopped (or died) while the call waited: another member's sweep cancelled it. */
    static JsonObject orphaned(String displayName) {
        return error(ORPHANED, "Cancelled: the member running this chat stopped while the tool '" + displayName
                + "' waited for approval; it did not run.", displayName);
    }

    private static JsonObject error(String code, String message, String displayName) {
        return Json.createObjectBuilder().add("error", Json.createObjectBuilder().add("message", message)
                .add("type", "tool_execution_error").add("code", code).add("tool_name", displayName)).build();
    }
}
