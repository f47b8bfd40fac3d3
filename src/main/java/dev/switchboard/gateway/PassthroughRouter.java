package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.client.InitializeResult;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * One backend as it is ({@code /mcp/servers/{name}}): every request goes to it unchanged, names, URIs and cursors
 * included, and its result comes back unchanged; only {@code ping} is answered here, and a request that is no valid MCP
 * client request ({@link ClientRequestCheck}) is refused here rather than sent on. The gateway's own rules still
 * hold: tools disabled for the server are neither listed nor called, subscriptions are shared with the caller's other
 * sessions, and a backend's requests and progress reach the client that made the request.
 */
public final class PassthroughRouter implements McpRouter {

    private final GatewayBackend backend;
    private final BackendAccess access;
    private final ResourceSubscriptions.Scope subscriptions;

    public PassthroughRouter(GatewayBackend backend, BackendAccess access, ResourceSubscriptions.Scope subscriptions) {
        this.backend = backend;
        this.access = access;
        this.subscriptions = subscriptions;
    }

    /**
     * The backend's own server info, instructions and capabilities, but tasks, which the gateway does not route.
     * A backend that cannot be reached still lets the client in, with no capabilities: its requests then fail
     * one by one with backend_unavailable, which says more than a failed handshake.
     */
    @Override
    public JsonObject initializeResult(String protocolVersion) {
        JsonObjectBuilder result = JSON.createObjectBuilder().add("protocolVersion", protocolVersion);
        try {
            InitializeResult initialized = access.initializeResult(backend, backend.timeout());
            result.add("capabilities", JSON.createObjectBuilder(initialized.capabilities()).remove("tasks"))
                    .add("serverInfo", initialized.serverInfo());
            if (initialized.instructions() != null) {
                result.add("instructions", initialized.instructions());
            }
        } catch (McpException e) {
            result.add("capabilities", JsonValue.EMPTY_JSON_OBJECT).add("serverInfo", JSON.createObjectBuilder()
                    .add("name", backend.name()).add("version", InitializeAnswer.SERVER_VERSION));
        }
        return result.build();
    }

    @Override
    public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
        Optional<JsonRpcMessage> refused = ClientRequestCheck.refusal(request);
        if (refused.isPresent()) {
            return refused.get();
        }
        JsonObject params = request.params();
        try {
            return switch (request.method()) {
                case "ping" -> JsonRpcMessage.result(request.id(), InitializeAnswer.empty());
                case "tools/list" -> JsonRpcMessage.result(request.id(), withoutDisabledTools(forward(request, null, null)));
                case "tools/call" -> params.get("name") instanceof JsonString name && backend.disabledTools().contains(name.getString())
                        ? GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "Unknown tool: " + name.getString(), null)
                        : JsonRpcMessage.result(request.id(), forward(request, McpRouter.progressRelay(params, progress), clientRequests));
                case "resources/subscribe" -> JsonRpcMessage.result(request.id(), subscribe(request));
                case "resources/unsubscribe" -> JsonRpcMessage.result(request.id(), unsubscribe(request));
                default -> JsonRpcMessage.result(request.id(), forward(request, McpRouter.progressRelay(params, progress), clientRequests));
            };
        } catch (McpException e) {
            return GatewayErrors.fromBackend(request.id(), backend.name(), request.method(), e);
        }
    }

    private JsonObject forward(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests)
            throws McpException {
        Duration timeout = backend.timeout();
        return access.request(backend, request.method(), request.params(), timeout, progress, clientRequests);
    }

    private JsonObject subscribe(JsonRpcMessage request) throws McpException {
        String uri = request.params().getString("uri", null);
        if (uri == null || !subscriptions.subscribe(backend, uri)) {
            return uri == null ? forward(request, null, null) : JsonValue.EMPTY_JSON_OBJECT;
        }
        try {
            return forward(request, null, null);
        } catch (McpException e) {
            subscriptions.unsubscribe(backend, uri);
            throw e;
        }
    }

    private JsonObject unsubscribe(JsonRpcMessage request) throws McpException {
        String uri = request.params().getString("uri", null);
        return uri == null || subscriptions.unsubscribe(backend, uri) ? forward(request, null, null) : JsonValue.EMPTY_JSON_OBJECT;
    }

    private JsonObject withoutDisabledTools(JsonObject result) {
        if (backend.disabledTools().isEmpty() || !(result.get("tools") instanceof JsonArray tools)) {
            return result;
        }
        var kept = JSON.createArrayBuilder();
        tools.stream().filter(t -> !(t instanceof JsonObject tool && backend.disabledTools().contains(tool.getString("name", ""))))
                .forEach(kept::add);
        return JSON.createObjectBuilder(result).add("tools", kept).build();
    }
}
