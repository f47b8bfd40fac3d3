package dev.switchboard.chat;

import java.util.Locale;

/** Seed 004's tool-call states. */
public enum ToolCallStatus {
    /** Waiting for someone to run or approve it (here: handed back to the caller). */
    PENDING,
    INVOKING,
    DONE,
    /** Ran and failed, or could not run (unknown tool, bad arguments, backend down). */
    ERROR,
    CANCELLED;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ToolCallStatus of(String json) {
        return valueOf(json.toUpperCase(Locale.ROOT));
    }
}
