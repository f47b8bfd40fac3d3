package dev.switchboard.gateway;

import dev.switchboard.audit.AuditLog;
import dev.switchboard.audit.AuditRecord;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reports every {@code tools/call}, {@code resources/read} and {@code prompts/get} that passes through a router to
 * the audit log (seed 001 §6.3): who, what, which backend, how it ended and how long it took. The caller is captured
 * when the router is made, because calls run later on gateway threads where no request scope exists. Until policy
 * and tracing land, every audited call is an {@code allow} and gets a fresh trace id of its own.
 */
public final class AuditedRouter implements McpRouter {

    private static final Set<String> AUDITED = Set.of("tools/call", "resources/read", "prompts/get");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Who is calling, through which upstream session. */
    public record Caller(String tenantId, String subject, String clientId) {
    }

    private final McpRouter delegate;
    private final AuditLog audit;
    private final Caller caller;

    public AuditedRouter(McpRouter delegate, AuditLog audit, Caller caller) {
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
        long started = System.nanoTime();
        JsonRpcMessage response = delegate.handle(request, progress, clientRequests);
        long millis = (System.nanoTime() - started) / 1_000_000;
        JsonObject params = request.params();
        String target = text(params, "prompts/get".equals(request.method()) || "tools/call".equals(request.method()) ? "name" : "uri");
        audit.record(new AuditRecord(System.currentTimeMillis(), caller.tenantId(), caller.clientId(), caller.subject(),
                request.method(), target, backendOf(target), "allow", traceId(), input(request.method(), params),
                outcome(response), millis));
        return response;
    }

    private static JsonValue input(String method, JsonObject params) {
        JsonValue arguments = params.get("arguments");
        return "resources/read".equals(method) ? params : arguments == null ? JsonValue.EMPTY_JSON_OBJECT : arguments;
    }

    /** Gateway names are {@code {backend}__{tool}}; a passthrough's names have no backend prefix. */
    private static String backendOf(String target) {
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

    private static String outcome(JsonRpcMessage response) {
        JsonObject json = response.json();
        if (json.get("error") instanceof JsonObject error) {
            return "error " + error.getInt("code", 0);
        }
        return json.get("result") instanceof JsonObject result && result.getBoolean("isError", false) ? "tool_error" : "ok";
    }

    private static String text(JsonObject params, String key) {
        return params.get(key) instanceof JsonString s ? s.getString() : null;
    }

    private static String traceId() {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        return HexFormat.of().formatHex(id);
    }
}
