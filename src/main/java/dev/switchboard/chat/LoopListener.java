package dev.switchboard.chat;

import java.util.List;

/**
 * What an agent run reports while it runs: for streaming and for saving the assistant message as it grows.
 * Tool results may arrive from several threads at once.
 */
public interface LoopListener {

    default void onContent(String delta) {
    }

    /** The provider has sent nothing more yet: a stream sends the text it has (see {@code StreamListener.onWaiting}). */
    default void onProviderWaiting() {
    }

    /**
     * These calls wait for someone to approve them (status {@code pending}). They must be stored before this
     * returns: a confirm may arrive as soon as the client sees them.
     *
     * @param all every record of the run so far, the round's auto-approved calls as {@code invoking}
     */
    default void onApprovalsNeeded(List<ToolCallRecord> pending, List<ToolCallRecord> all, String content) {
    }

    /**
     * Calls are still waiting for approval; called every poll interval of the wait. A stream sends a keep-alive,
     * which also finds out whether its client is still there: the write to a closed stream throws, ending the run.
     */
    default void onAwaitingApproval() {
    }

    /** Switchboard is about to run these calls (status {@code invoking}). */
    default void onToolCalls(List<ToolCallRecord> invoking) {
    }

    /**
     * One call finished.
     *
     * @param content what goes back to the LLM as the {@code tool} message
     */
    default void onToolResult(ToolCallRecord finished, String content) {
    }

    /**
     * After each round of calls Switchboard ran: every record so far and the text so far, to be saved. Not at the end
     * of the run: its outcome says the same, with the finish reason, and is saved once by whoever ran it.
     */
    default void onProgress(List<ToolCallRecord> records, String content) {
    }
}
