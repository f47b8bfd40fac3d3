package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.observability.TraceScope;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The outermost layer of every router: binds the caller's trace to the worker thread serving a request (so every log
 * record made while serving it carries the trace, tenant and subject), and for each {@code tools/call},
 * {@code resources/read} and {@code prompts/get} writes one log line with tool, backend, decision, outcome and
 * duration as fields, and counts it in {@link GatewayMetrics}. Arguments never reach the log.
 */
public final class ObservedRouter implements McpRouter {

    private static final Logger LOG = Logger.getLogger(ObservedRouter.class.getName());
    private static final Set<String> OBSERVED = Set.of("tools/call", "resources/read", "prompts/get");
    /** Answers that mean the named target was never served: its name is the client's word only. */
    private static final Set<Integer> UNSERVED = Set.of(GatewayErrors.INVALID_REQUEST, GatewayErrors.METHOD_NOT_FOUND,
            GatewayErrors.INVALID_PARAMS, GatewayErrors.RESOURCE_NOT_FOUND, ObservedRouter.RATE_LIMITED, ObservedRouter.POLICY_DENIED);
    /** The governance's policy answers, given by the policy layer below this one. */
    private static final int RATE_LIMITED = -32010;
    private static final int POLICY_DENIED = -32020;

    private final McpRouter delegate;
    private final ClientContext caller;
    private final GatewayMetrics metrics;
    private final String fixedBackend;

    /** @param fixedBackend the one backend of a passthrough router (its names carry no backend), else null */
    public ObservedRouter(McpRouter delegate, ClientContext caller, GatewayMetrics metrics, String fixedBackend) {
        this.delegate = delegate;
        this.caller = caller;
        this.metrics = metrics;
        this.fixedBackend = fixedBackend;
    }

    @Override
    public JsonObject initializeResult(String protocolVersion) {
        try (TraceScope ignored = scope()) {
            return delegate.initializeResult(protocolVersion);
        }
    }

    @Override
    public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
        try (TraceScope scope = scope()) {
            if (!OBSERVED.contains(request.method())) {
                return delegate.handle(request, progress, clientRequests);
            }
            long started = System.nanoTime();
            JsonRpcMessage response = delegate.handle(request, progress, clientRequests);
            Duration duration = Duration.ofNanos(System.nanoTime() - started);
            observe(scope, request, response, duration);
            return response;
        }
    }

    private TraceScope scope() {
        return TraceScope.open(caller.trace(), Map.of("tenant", caller.tenantId(), "subject", caller.subject()));
    }

    private void observe(TraceScope scope, JsonRpcMessage request, JsonRpcMessage response, Duration duration) {
        JsonObject params = request.params();
        // a resource URI may carry anything the client put in it, so the log names its backend only
        String key = "resources/read".equals(request.method()) ? "uri" : "name";
        String target = params.get(key) instanceof JsonString s ? s.getString() : null;
        Integer code = response.json().get("error") instanceof JsonObject error && error.get("code") instanceof JsonNumber n
                ? n.intValue() : null;
        String outcome = code != null ? "error"
                : response.json().get("result") instanceof JsonObject result && result.getBoolean("isError", false) ? "tool_error" : "ok";
        boolean served = code == null || !UNSERVED.contains(code);
        String backend = served ? (fixedBackend != null ? fixedBackend : AuditedRouter.backendOf(target)) : null;
        String tool = served && "tools/call".equals(request.method()) ? target : null;
        metrics.call(request.method(), backend, tool, outcome, code, duration);
        String decision = code == null ? "allow" : code == POLICY_DENIED ? "deny" : code == RATE_LIMITED ? "rate_limited" : "allow";
        String named = !served ? GatewayMetrics.UNKNOWN : "resources/read".equals(request.method()) ? null : target;
        scope.put("method", request.method());
        scope.put("tool", named);
        scope.put("backend", backend);
        scope.put("decision", decision);
        scope.put("outcome", code == null ? outcome : "error " + code);
        scope.put("duration_long", Long.toString(duration.toMillis()));
        // source class and method given: otherwise the log handler walks the stack to find them, on every call
        LOG.logp(Level.INFO, ObservedRouter.class.getName(), "observe", () -> request.method() + " " + (named == null ? "on " + backend : named) + ": " + outcome
                + (code == null ? "" : " " + code) + " in " + duration.toMillis() + " ms");
    }
}
