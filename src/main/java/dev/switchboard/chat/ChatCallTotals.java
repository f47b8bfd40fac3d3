package dev.switchboard.chat;

import dev.switchboard.observability.timeline.CallTotals;
import dev.switchboard.observability.timeline.CallTotalsSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Timer;

import java.util.Map;

/**
 * The chat loop's side of the metrics timeline: the MCP tool calls of chat runs, each timed by
 * {@link ChatMetrics#TOOL_DURATION}, failed when {@link ChatMetrics#ERRORS} counted a {@code tool_error} or
 * {@code tool_failed_*} for it.
 */
@ApplicationScoped
public class ChatCallTotals implements CallTotalsSource {

    @Inject
    MetricRegistry registry;

    @Override
    public Side side() {
        return Side.CHAT;
    }

    @Override
    public CallTotals read() {
        long calls = 0;
        long nanos = 0;
        for (Timer timer : registry.getTimers((id, m) -> id.getName().equals(ChatMetrics.TOOL_DURATION)).values()) {
            calls += timer.getCount();
            nanos += timer.getElapsedTime().toNanos();
        }
        long errors = 0;
        for (Map.Entry<MetricID, Counter> e : registry.getCounters((id, m) -> id.getName().equals(ChatMetrics.ERRORS)).entrySet()) {
            String type = e.getKey().getTags().getOrDefault("type", "");
            if (type.equals(ChatMetrics.TOOL_ERROR) || type.startsWith(ChatMetrics.TOOL_FAILED_PREFIX)) {
                errors += e.getValue().getCount();
            }
        }
        return new CallTotals(calls, errors, calls, nanos);
    }
}
