package dev.switchboard.gateway;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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

    // the registry's handles, looked up once per tag set: a registry lookup builds and hashes a MetricID each time,
    // a visible share of a gateway call's CPU; the tag sets are bounded (see above) and metrics are never removed
    private final Map<CallKey, Counter> calls = new ConcurrentHashMap<>();
    private final Map<TargetKey, Timer> durations = new ConcurrentHashMap<>();
    private final Map<Integer, Counter> errors = new ConcurrentHashMap<>();

    /**
     * @param outcome {@code ok}, {@code tool_error} (the tool's own {@code isError}) or {@code error}
     * @param code    the JSON-RPC error code, or null
     */
    public void call(String method, String backend, String tool, String outcome, Integer code, Duration duration) {
        String backendTag = backend == null ? UNKNOWN : backend;
        String toolTag = tool == null ? UNKNOWN : tool;
        calls.computeIfAbsent(new CallKey(method, backendTag, toolTag, outcome), key -> registry.counter(CALLS,
                new Tag("backend", key.backend()), new Tag("tool", key.tool()), new Tag("method", key.method()),
                new Tag("outcome", key.outcome()))).inc();
        durations.computeIfAbsent(new TargetKey(backendTag, toolTag), key -> registry.timer(CALL_DURATION,
                new Tag("backend", key.backend()), new Tag("tool", key.tool()))).update(duration);
        if (code != null) {
            errors.computeIfAbsent(code, c -> registry.counter("switchboard_gateway_errors", new Tag("code", Integer.toString(c)))).inc();
        }
    }

    private record CallKey(String method, String backend, String tool, String outcome) {
    }

    private record TargetKey(String backend, String tool) {
    }
}
