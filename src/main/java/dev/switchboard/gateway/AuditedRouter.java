package dev.switchboard.gateway;

import dev.switchboard.audit.AuditOutcome;
import dev.switchboard.audit.AuditRecord;
import dev.switchboard.audit.AuditTrail;
import dev.switchboard.audit.AuditUnavailableException;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.observability.TraceContext;
import dev.switchboard.policy.CallAdmission;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Set;
import java.util.function.Consumer;

/**
 * Reports every {@code tools/call}, {@code resources/read} and {@code prompts/get} that passes through a router to
 * the audit log (governance: audit and redaction): who, what, which backend, how it ended and how long it took. The caller is captured
 * when the router is made, because calls run later on gateway threads where no request scope exists. The decision is
 * {@code deny} or {@code rate_limited} for the refusals of {@link PolicyRouter}, {@code allow} otherwise; the trace id
 * is the caller's request's (W3C trace context).
 * <p>
 * The answer goes out only once its event is in the database ({@link AuditTrail#record} returned): when the event
 * cannot be made durable in time, the caller gets {@code -32050 audit_unavailable} instead of the answer, and when the
 * audit database is known not to answer, the call is refused with that error before it runs.
 */
public final class AuditedRouter implements McpRouter {

    private static final Set<String> AUDITED = Set.of("tools/call", "resources/read", "prompts/get");

    private final McpRouter delegate;
    private final AuditTrail audit;
    private final ClientContext caller;

    public AuditedRouter(McpRouter delegate, AuditTrail audit, ClientContext caller) {
        this.delegate = delegate;
        this.audit = audit;
        this.caller = caller;
    }

    @Override
    public JsonObject initializeResult(String protocolVersion) {
        return delegate.initializeResult(protocolVersion);
    }

    @Override
    public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
        if (!AUDITED.contains(request.method())) {
            return delegate.handle(request, progress, clientRequests);
        }
        try {
            audit.checkWriting();
        } catch (AuditUnavailableException e) {
            return unavailable(request, e);
        }
        long started = System.nanoTime();
        JsonRpcMessage response = delegate.handle(request, progress, clientRequests);
        long millis = (System.nanoTime() - started) / 1_000_000;
        JsonObject params = request.params();
        String decision = decision(response);
        String target = text(params, "prompts/get".equals(request.method()) || "tools/call".equals(request.method()) ? "name" : "uri");
        try {
            audit.record(new AuditRecord(System.currentTimeMillis(), caller.tenantId(), caller.clientId(), caller.subject(),
                    request.method(), target, backendOf(target), decision, caller.trace().traceId(), input(request.method(), params),
                    CallAdmission.ALLOW.equals(decision) ? outcome(response) : null, millis));
        } catch (AuditUnavailableException e) {
            return unavailable(request, e);
        }
        return response;
    }

    private static JsonRpcMessage unavailable(JsonRpcMessage request, AuditUnavailableException e) {
        return GatewayErrors.error(request.id(), GatewayErrors.AUDIT_UNAVAILABLE, AuditUnavailableException.CODE + ": " + e.getMessage(), null);
    }

    private static JsonValue input(String method, JsonObject params) {
        JsonValue arguments = params.get("arguments");
        return "resources/read".equals(method) ? params : arguments == null ? JsonValue.EMPTY_JSON_OBJECT : arguments;
    }

    /** Gateway names are {@code {backend}__{tool}}; a passthrough's names have no backend prefix. */
    static String backendOf(String target) {
        if (target == null) {
            return null;
        }
        int separator = target.indexOf("__");
        if (separator > 0) {
            return target.substring(0, separator);
        }
        if (target.startsWith("switchboard://")) {
            String rest = target.substring("switchboard://".length());
            int slash = rest.indexOf('/');
            return slash > 0 ? rest.substring(0, slash) : rest;
        }
        return null;
    }

    /** The policy layer marks its refusals with {@code error.data.decision}; everything else was allowed. */
    private static String decision(JsonRpcMessage response) {
        if (response.json().get("error") instanceof JsonObject error && error.get("data") instanceof JsonObject data) {
            int code = error.getInt("code", 0);
            if (code == GatewayErrors.POLICY_DENIED || code == GatewayErrors.RATE_LIMITED) {
                return text(data, "decision") != null ? text(data, "decision") : CallAdmission.ALLOW;
            }
        }
        return CallAdmission.ALLOW;
    }

    private static String outcome(JsonRpcMessage response) {
        JsonObject json = response.json();
        if (json.get("error") instanceof JsonObject error) {
            return AuditOutcome.error(error.getInt("code", 0));
        }
        return json.get("result") instanceof JsonObject result ? AuditOutcome.ofResult(result) : AuditOutcome.OK;
    }

    private static String text(JsonObject params, String key) {
        return params.get(key) instanceof JsonString s ? s.getString() : null;
    }
}
