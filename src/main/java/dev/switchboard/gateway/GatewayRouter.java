package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.backend.tools.GatewayToolName;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Answers one client request of the aggregated endpoint over one caller's backends: {@code ping} locally,
 * {@code tools/list} across backends with composite cursors, {@code tools/call} routed to the owning backend under
 * its own name with the result passed through unchanged, {@code logging/setLevel} to every backend that logs;
 * resources, prompts and completions through {@link ResourceRoutes} and {@link PromptRoutes}. Session-level methods
 * ({@code initialize}) belong to the transport.
 */
public final class GatewayRouter implements McpRouter {

    private final List<GatewayBackend> backends;
    private final BackendAccess access;
    private final Executor executor;
    private final GatewaySettings settings;
    private final ResourceRoutes resources;
    private final PromptRoutes prompts;

    /** @param subscriptions the resource subscriptions of the client session the requests come from */
    public GatewayRouter(List<GatewayBackend> backends, BackendAccess access, Executor executor, GatewaySettings settings,
                         ResourceSubscriptions.Scope subscriptions) {
        this.backends = List.copyOf(backends);
        this.access = access;
        this.executor = executor;
        this.settings = settings;
        this.resources = new ResourceRoutes(this.backends, access, executor, settings, subscriptions);
        this.prompts = new PromptRoutes(this.backends, access, executor, settings);
    }

    /** What the backends offer together, for {@code initialize}; a backend too slow to say is left out. */
    public JsonObject capabilities() {
        return CapabilityUnion.of(BackendFanOut.collect(backends, executor, settings.listTimeout(), "initialize",
                access::capabilities).values());
    }

    @Override
    public JsonObject initializeResult(String protocolVersion) {
        return InitializeAnswer.result(protocolVersion, capabilities());
    }

    /** As {@link #handle(JsonRpcMessage, Consumer, ServerRequestHandler)} for a client that cannot be asked anything. */
    public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress) {
        return handle(request, progress, null);
    }

    @Override
    public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
        String method = request.method();
        return switch (method) {
            case "ping" -> JsonRpcMessage.result(request.id(), InitializeAnswer.empty());
            case "tools/list" -> listTools(request);
            case "tools/call" -> callTool(request, progress, clientRequests);
            case "resources/list" -> resources.list(request);
            case "resources/templates/list" -> resources.templates(request);
            case "resources/read" -> resources.read(request, clientRequests);
            case "resources/subscribe" -> resources.subscribe(request);
            case "resources/unsubscribe" -> resources.unsubscribe(request);
            case "prompts/list" -> prompts.list(request);
            case "prompts/get" -> prompts.get(request, clientRequests);
            case "completion/complete" -> prompts.complete(request, clientRequests);
            case "logging/setLevel" -> setLevel(request);
            default -> GatewayErrors.error(request.id(), GatewayErrors.METHOD_NOT_FOUND, "Method not found: " + method, null);
        };
    }

    private JsonRpcMessage listTools(JsonRpcMessage request) {
        JsonValue cursorValue = request.params().get("cursor");
        Optional<ListCursor> cursor = Optional.empty();
        if (cursorValue != null && cursorValue != JsonValue.NULL) {
            cursor = cursorValue instanceof JsonString s ? ListCursor.decode(s.getString()) : Optional.empty();
            if (cursor.isEmpty()) {
                return GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "Invalid cursor", null);
            }
        }
        ToolCatalog catalog = ToolCatalog.fetch(backends, access, executor, settings.listTimeout());
        Optional<ListCursor> from = cursor;
        List<ToolCatalog.Entry> remaining = catalog.entries().stream()
                .filter(e -> from.map(c -> c.isAtOrBefore(e.backend().name(), e.index())).orElse(true))
                .toList();
        var tools = JSON.createArrayBuilder();
        remaining.stream().limit(settings.pageSize()).forEach(e -> tools.add(e.exposedTool()));
        JsonObjectBuilder result = JSON.createObjectBuilder().add("tools", tools);
        if (remaining.size() > settings.pageSize()) {
            ToolCatalog.Entry next = remaining.get(settings.pageSize());
            result.add("nextCursor", new ListCursor(next.backend().name(), next.index()).encode());
        }
        return JsonRpcMessage.result(request.id(), result.build());
    }

    /**
     * Sets the level on every backend that logs. Backend sessions are shared by a caller's client sessions, so the
     * level applies to all of them: the last one set wins. A backend that fails is logged and skipped.
     */
    private JsonRpcMessage setLevel(JsonRpcMessage request) {
        if (!(request.params().get("level") instanceof JsonString)) {
            return GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "logging/setLevel needs a level", null);
        }
        BackendFanOut.collect(backends, executor, settings.listTimeout(), "logging/setLevel", (backend, timeout) ->
                CapabilityUnion.offers(access.capabilities(backend, timeout), "logging")
                        ? access.request(backend, "logging/setLevel", request.params(), timeout, null, null)
                        : JsonValue.EMPTY_JSON_OBJECT);
        return JsonRpcMessage.result(request.id(), InitializeAnswer.empty());
    }

    private JsonRpcMessage callTool(JsonRpcMessage request, Consumer<JsonObject> progress,
                                    ServerRequestHandler clientRequests) {
        JsonObject params = request.params();
        String exposed = params.get("name") instanceof JsonString s ? s.getString() : null;
        Optional<GatewayToolName> name = GatewayToolName.parse(exposed);
        Optional<GatewayBackend> backend = name.flatMap(n -> backends.stream()
                .filter(b -> b.name().equals(n.backend())).findFirst());
        if (backend.isEmpty() || backend.get().disabledTools().contains(name.get().tool())) {
            return unknownTool(request, exposed);
        }
        GatewayBackend owner = backend.get();
        String tool = name.get().tool();
        try {
            boolean listed = access.listTools(owner, owner.timeout()).stream()
                    .anyMatch(t -> tool.equals(t.getString("name", null)));
            if (!listed) {
                return unknownTool(request, exposed);
            }
            JsonObject forwarded = JSON.createObjectBuilder(params).add("name", tool).build();
            JsonObject result = access.request(owner, "tools/call", forwarded, owner.timeout(),
                    McpRouter.progressRelay(params, progress), clientRequests);
            return JsonRpcMessage.result(request.id(), ContentUris.inToolResult(owner.name(), result));
        } catch (McpException e) {
            return GatewayErrors.fromBackend(request.id(), owner.name(), "tools/call", e);
        }
    }

    private static JsonRpcMessage unknownTool(JsonRpcMessage request, String exposed) {
        return GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "Unknown tool: " + exposed, null);
    }
}
