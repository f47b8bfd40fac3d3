package dev.switchboard.chat;

import java.util.Locale;

/** The MCP client system's tool-call states. */
public enum ToolCallStatus {
    /** Waiting for someone: approval ({@code POST /api/messages/{id}/tool-confirm}), or the caller in manual mode. */
    PENDING,
    INVOKING,
    DONE,
    /** Ran and failed, or could not run (unknown tool, bad arguments, backend down). */
    ERROR,
    /** Did not run: the user refused it, or nobody approved it in time. */
    CANCELLED;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ToolCallStatus of(String json) {
        return valueOf(json.toUpperCase(Locale.ROOT));
    }
}
