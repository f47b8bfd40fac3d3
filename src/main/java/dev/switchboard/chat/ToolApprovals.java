package dev.switchboard.chat;

import java.util.List;
import java.util.Map;

/**
 * Waits for the decisions on the calls of a round that are not auto-approved. The calls are already stored as
 * {@code pending} and shown to the client when this is asked; the wait is bounded by the approval timeout.
 */
@FunctionalInterface
public interface ToolApprovals {

    /**
     * A decision for every call, by call id; a call nobody decided on in time is refused with a timeout.
     *
     * @param stillWaiting run between reads of the decisions; when it throws (the client of a stream has gone), the
     *                     calls still pending are cancelled and the exception ends the wait
     */
    Map<String, ToolApproval> await(List<ToolCallRecord> pending, Runnable stillWaiting);
}
