package dev.switchboard.gateway;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import java.time.Duration;

/**
 * The gateway's figures on {@code /metrics}: calls by method, backend, tool and outcome, their latency per backend and
 * tool, and errors by JSON-RPC code. Backend and tool tags only ever hold names the caller could be served under;
 * a request that named no such thing is counted as {@code (unknown)}, so clients cannot grow the tag sets.
 */
@ApplicationScoped
public class GatewayMetrics {

    /** The backend and tool tag of a call that was not served under a known name. */
    public static final String UNKNOWN = "(unknown)";
    public static final String CALLS = "switchboard_gateway_calls";
    public static final String CALL_DURATION = "switchboard_gateway_call_duration";

    @Inject
    MetricRegistry registry;

    /**
     * @param outcome {@code ok}, {@code tool_error} (the tool's own {@code isError}) or {@code error}
     * @param code    the JSON-RPC error code, or null
     */
    public void call(String method, String backend, String tool, String outcome, Integer code, Duration duration) {
        Tag[] target = {new Tag("backend", backend == null ? UNKNOWN : backend), new Tag("tool", tool == null ? UNKNOWN : tool)};
        registry.counter(CALLS, target[0], target[1], new Tag("method", method), new Tag("outcome", outcome)).inc();
        registry.timer(CALL_DURATION, target).update(duration);
        if (code != null) {
            registry.counter("switchboard_gateway_errors", new Tag("code", Integer.toString(code))).inc();
        }
    }
}
