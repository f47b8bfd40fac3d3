package dev.switchboard.chat;

import dev.switchboard.llm.ToolCall;
import dev.switchboard.llm.Usage;

import java.util.List;

/**
 * The end of one agent run.
 *
 * @param content           the text of every round, in order
 * @param finishReason      {@code stop}, {@code length}, or {@code tool_calls} when {@code pendingCalls} go back to the caller
 * @param pendingCalls      calls the caller has to run (manual mode), as the LLM wrote them
 * @param records           every tool call of the run, the executed ones with their results
 *                          ({@link #toolsCalled()} leaves out those that never ran: handed back, refused, timed out)
 * @param rounds            how many rounds of tool calls Switchboard executed
 * @param roundLimitReached whether the last answer came from the final call without tools
 */
public record ChatOutcome(String model, String content, String finishReason, List<ToolCall> pendingCalls,
                          List<ToolCallRecord> records, Usage usage, int rounds, boolean roundLimitReached) {

    /**
     * Seed 003's {@code tool_execution.executed}: whether any tool ran. A run whose only calls were refused, handed
     * back or timed out ran nothing, though it may have had rounds.
     */
    public boolean executed() {
        return !toolsCalled().isEmpty();
    }

    public List<String> toolsCalled() {
        return records.stream().filter(r -> r.status() == ToolCallStatus.DONE || r.status() == ToolCallStatus.ERROR)
                .map(ToolCallRecord::displayName)
                .distinct().toList();
    }
}
