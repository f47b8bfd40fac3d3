package dev.switchboard.gateway.modern;

import dev.switchboard.gateway.ClientVersions;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.McpRouter;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpErrorCodes;
import dev.switchboard.mcp.ModernProtocol;
import dev.switchboard.mcp.RequestMeta;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.security.CallerIdentity;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Serves one stateless (2026-07-28) request over the router stack a session-era client's requests go through, so
 * names, cursors, policy, rate limits, audit and traces are the same for both eras. Around that stack it answers
 * what only this era has ({@code server/discover}; the session-era methods it removed are unknown here), takes the
 * protocol's own {@code _meta} keys off the request (they describe this hop, not the backend's), and gives the
 * answer this era's shape: {@code resultType} on every result, caching hints on lists and reads, and error codes
 * that mean one thing only ({@link ModernErrorCodes}).
 */
public final class ModernRouter implements McpRouter {

    /**
     * Lists and reads may be cached by this caller only: what they hold depends on the caller's tenant and policy.
     * They are stale at once: a stateless client cannot be told of a change yet ({@code subscriptions/listen}).
     */
    static final String CACHE_SCOPE = "private";
    static final int TTL_MS = 0;

    private final McpRouter router;
    private final RequestMeta meta;
    private final List<String> supported;
    private final boolean aggregated;
    private final InputRequiredBridge bridge;

    /**
     * @param router     the session-era router stack of the endpoint, its backend access wrapped in {@link ModernBackendAccess}
     * @param supported  every version served, for {@code server/discover}
     * @param aggregated whether the endpoint is {@code /mcp} (else one backend's passthrough)
     * @param caller     who calls, to whom a paused call's {@code requestState} is bound
     */
    public ModernRouter(McpRouter router, RequestMeta meta, List<String> supported, boolean aggregated,
                        PausedCalls paused, CallerIdentity caller) {
        this.router = router;
        this.meta = meta;
        this.supported = List.copyOf(supported);
        this.aggregated = aggregated;
        this.bridge = new InputRequiredBridge(paused, meta, caller.tenant(), caller.subject());
    }

    @Override
    public JsonObject initializeResult(String protocolVersion) {
        return router.initializeResult(protocolVersion);
    }

    /** The HTTP status a stateless request's answer travels with (transports/streamable-http). */
    public static int httpStatus(JsonRpcMessage response) {
        if (!(response.json().get("error") instanceof JsonObject error) || !(error.get("code") instanceof JsonNumber code)) {
            return 200;
        }
        return switch (code.intValue()) {
            case McpErrorCodes.HEADER_MISMATCH, McpErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
                 McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION -> 400;
            case GatewayErrors.METHOD_NOT_FOUND -> 404;
            default -> 200;
        };
    }

    /** @param clientRequests unused: such a client cannot be sent requests ({@link BackendAsks} answers backends) */
    @Override
    public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
        String method = request.method();
        if (ModernProtocol.DISCOVER.equals(method)) {
            return JsonRpcMessage.result(request.id(), DiscoverAnswer.of(router.initializeResult(ClientVersions.LATEST),
                    supported, aggregated, cacheHints(JSON.createObjectBuilder())));
        }
        if (ModernProtocol.REMOVED.contains(method) || "subscriptions/listen".equals(method)) {
            return GatewayErrors.error(request.id(), GatewayErrors.METHOD_NOT_FOUND, "Method not found: " + method
                    + (ModernProtocol.REMOVED.contains(method) ? " is not part of MCP " + meta.protocolVersion()
                    : " is served on the HTTP endpoints only, as an SSE stream"), null);
        }
        JsonRpcMessage below = withoutProtocolMeta(request);
        if (InputRequiredBridge.SERVED.contains(method)) {
            return bridge.serve(request, progress, (sink, asks) -> router.handle(below, sink, asks),
                    response -> inThisEra(request, response));
        }
        BackendAsks asks = new BackendAsks(meta);
        JsonRpcMessage response = router.handle(below, progress, asks);
        return asks.answerInstead(request.id()).orElseGet(() -> inThisEra(request, response));
    }

    private static JsonRpcMessage inThisEra(JsonRpcMessage request, JsonRpcMessage response) {
        if (response.json().get("error") instanceof JsonObject error) {
            return new JsonRpcMessage(JSON.createObjectBuilder(response.json()).add("error", translated(request, error)).build());
        }
        JsonObject result = response.json().get("result") instanceof JsonObject r ? r : JsonValue.EMPTY_JSON_OBJECT;
        JsonObjectBuilder shaped = JSON.createObjectBuilder(result);
        if (!result.containsKey(ModernProtocol.RESULT_TYPE)) {
            shaped.add(ModernProtocol.RESULT_TYPE, ModernProtocol.COMPLETE);
        }
        if (ModernProtocol.CACHEABLE.contains(request.method())) {
            shaped.add(ModernProtocol.CACHE_SCOPE, CACHE_SCOPE);
            if (!(result.get(ModernProtocol.TTL_MS) instanceof JsonNumber)) {
                shaped.add(ModernProtocol.TTL_MS, TTL_MS);
            }
        }
        return JsonRpcMessage.result(request.id(), shaped.build());
    }

    /** The gateway's code in this era's table; a not-found resource names its URI, as 2026-07-28 asks. */
    private static JsonObject translated(JsonRpcMessage request, JsonObject error) {
        int code = error.getInt("code", GatewayErrors.INTERNAL_ERROR);
        int modern = ModernErrorCodes.ofGateway(code);
        JsonObjectBuilder out = JSON.createObjectBuilder(error).add("code", modern);
        boolean notFound = code == GatewayErrors.RESOURCE_NOT_FOUND
                || modern == GatewayErrors.INVALID_PARAMS && "resources/read".equals(request.method());
        if (notFound && request.params().get("uri") instanceof JsonString uri) {
            JsonValue data = error.get("data");
            if (data == null || data instanceof JsonObject o && !o.containsKey("uri")) {
                out.add("data", JSON.createObjectBuilder(data == null ? JsonValue.EMPTY_JSON_OBJECT : (JsonObject) data)
                        .add("uri", uri));
            }
        }
        return out.build();
    }

    /** The request without the keys of {@code _meta} the specification reserves ({@code io.modelcontextprotocol/...}). */
    static JsonRpcMessage withoutProtocolMeta(JsonRpcMessage request) {
        JsonObject meta = request.params().getJsonObject("_meta");
        JsonObjectBuilder kept = JSON.createObjectBuilder();
        meta.forEach((key, value) -> {
            if (!key.startsWith(ModernProtocol.RESERVED_META_PREFIX)) {
                kept.add(key, value);
            }
        });
        JsonObject keptMeta = kept.build();
        JsonObjectBuilder params = JSON.createObjectBuilder(request.params());
        if (keptMeta.isEmpty()) {
            params.remove("_meta");
        } else {
            params.add("_meta", keptMeta);
        }
        return new JsonRpcMessage(JSON.createObjectBuilder(request.json()).add("params", params).build());
    }

    static JsonObjectBuilder cacheHints(JsonObjectBuilder result) {
        return result.add(ModernProtocol.CACHE_SCOPE, CACHE_SCOPE).add(ModernProtocol.TTL_MS, TTL_MS);
    }
}
