package dev.switchboard.chat;

import dev.switchboard.llm.LlmException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import java.time.Duration;
import java.util.Locale;

/**
 * The chat API's monitoring list on {@code /metrics}: requests (with and without tool calls, and how they ended), their
 * duration, each tool's calls by status and execution time, and errors by type. Tool tags are the display names of
 * registered tools, so their number is bounded by what users registered.
 */
@ApplicationScoped
public class ChatMetrics {

    public static final String TOOL_DURATION = "switchboard_chat_tool_duration";
    public static final String ERRORS = "switchboard_chat_errors";
    /** The error type of a tool's own error result; a call that failed to run is {@code tool_failed_<kind>}. */
    public static final String TOOL_ERROR = "tool_error";
    public static final String TOOL_FAILED_PREFIX = "tool_failed_";

    @Inject
    MetricRegistry registry;

    /** A run that answered. */
    void finished(ChatOutcome outcome, Duration duration) {
        boolean usedTools = outcome.records().stream()
                .anyMatch(r -> r.status() == ToolCallStatus.DONE || r.status() == ToolCallStatus.ERROR);
        request(usedTools, "ok", duration);
        for (ToolCallRecord call : outcome.records()) {
            if (call.status() == ToolCallStatus.DONE || call.status() == ToolCallStatus.ERROR) {
                registry.counter("switchboard_chat_tool_calls", new Tag("tool", call.displayName()),
                        new Tag("status", call.status().name().toLowerCase(Locale.ROOT))).inc();
            }
        }
    }

    /** A run the provider failed; the type is the error code the caller got. */
    void failed(LlmException e, Duration duration) {
        request(false, "error", duration);
        error("llm_" + e.kind().name().toLowerCase(Locale.ROOT));
    }

    /** A streamed run whose caller went away before it ended. */
    void abandoned(Duration duration) {
        request(false, "abandoned", duration);
    }

    /** One MCP tool call of a run, timed; {@code failure} is null when the server answered. */
    void toolCall(String tool, Duration duration, String failure) {
        registry.timer(TOOL_DURATION, new Tag("tool", tool)).update(duration);
        if (failure != null) {
            error(failure);
        }
    }

    private void request(boolean usedTools, String outcome, Duration duration) {
        registry.counter("switchboard_chat_requests", new Tag("tool_calls", Boolean.toString(usedTools)),
                new Tag("outcome", outcome)).inc();
        registry.timer("switchboard_chat_request_duration").update(duration);
    }

    private void error(String type) {
        registry.counter(ERRORS, new Tag("type", type)).inc();
    }
}
