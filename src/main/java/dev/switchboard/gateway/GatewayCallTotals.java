package dev.switchboard.gateway;

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
 * The gateway's side of the metrics timeline, summed over every tag combination: {@code tools/call}s counted by
 * {@link GatewayMetrics#CALLS} with {@code method=tools/call}, failed when their outcome is {@code error} or
 * {@code tool_error}; timed by {@link GatewayMetrics#CALL_DURATION} for the calls served under a tool name (that
 * timer's other series are {@code resources/read}, {@code prompts/get} and calls that reached no tool, tagged
 * {@link GatewayMetrics#UNKNOWN}).
 */
@ApplicationScoped
public class GatewayCallTotals implements CallTotalsSource {

    @Inject
    MetricRegistry registry;

    @Override
    public Side side() {
        return Side.GATEWAY;
    }

    @Override
    public CallTotals read() {
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
}
