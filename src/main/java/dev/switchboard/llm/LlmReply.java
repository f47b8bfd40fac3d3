package dev.switchboard.llm;

import java.util.List;

/**
 * One assistant turn from the provider, blocking or assembled from a stream.
 *
 * @param content      the text, empty when the model only called tools
 * @param finishReason {@code tool_calls} whenever tool calls are present (some providers say {@code stop})
 */
public record LlmReply(String model, String content, List<ToolCall> toolCalls, String finishReason, Usage usage) {

    public LlmReply {
        content = content == null ? "" : content;
        toolCalls = List.copyOf(toolCalls);
        finishReason = toolCalls.isEmpty() ? (finishReason == null ? "stop" : finishReason) : "tool_calls";
    }

    public boolean hasToolCalls() {
        return !toolCalls.isEmpty();
    }
}
