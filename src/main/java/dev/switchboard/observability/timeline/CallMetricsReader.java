package dev.switchboard.observability.timeline;

import dev.switchboard.chat.ChatMetrics;
import dev.switchboard.gateway.GatewayMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Timer;

import java.time.Instant;
import java.util.Map;

/**
 * Reads the cumulative call figures the timeline samples from the application's metric registry, summed over every
 * tag combination:
 * <ul>
 * <li>gateway: {@code tools/call}s counted by {@link GatewayMetrics#CALLS} with {@code method=tools/call}, failed when
 * their outcome is {@code error} or {@code tool_error}; timed by {@link GatewayMetrics#CALL_DURATION} for the calls
 * served under a tool name (that timer's other series are {@code resources/read}, {@code prompts/get} and calls that
 * reached no tool, tagged {@link GatewayMetrics#UNKNOWN});</li>
 * <li>chat: the MCP tool calls of chat runs, each timed by {@link ChatMetrics#TOOL_DURATION}, failed when
 * {@link ChatMetrics#ERRORS} counted a {@code tool_error} or {@code tool_failed_*} for it.</li>
 * </ul>
 */
@ApplicationScoped
public class CallMetricsReader {

    @Inject
    MetricRegistry registry;

    public Sample read(Instant at) {
        return new Sample(at, gateway(), chat());
    }

    private CallTotals gateway() {
        long calls = 0;
        long errors = 0;
        for (Map.Entry<MetricID, Counter> e : registry.getCounters((id, m) -> id.getName().equals(GatewayMetrics.CALLS)).entrySet()) {
            Map<String, String> tags = e.getKey().getTags();
            if (!"tools/call".equals(tags.get("method"))) {
                continue;
            }
            long count = e.getValue().getCount();
            calls += count;
            String outcome = tags.get("outcome");
            if ("error".equals(outcome) || "tool_error".equals(outcome)) {
                errors += count;
            }
        }
        long timed = 0;
        long nanos = 0;
        for (Map.Entry<MetricID, Timer> e : registry.getTimers((id, m) -> id.getName().equals(GatewayMetrics.CALL_DURATION)).entrySet()) {
            String tool = e.getKey().getTags().get("tool");
            if (tool == null || tool.equals(GatewayMetrics.UNKNOWN)) {
                continue;
            }
            timed += e.getValue().getCount();
            nanos += e.getValue().getElapsedTime().toNanos();
        }
        return new CallTotals(calls, errors, timed, nanos);
    }

    private CallTotals chat() {
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
