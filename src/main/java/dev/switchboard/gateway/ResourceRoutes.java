package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The {@code resources/*} methods of the aggregated endpoint. Every URI the client sees is a {@link ResourceUri}, so
 * a read, a subscription or a template expanded by the client routes back to its backend under the original URI.
 */
final class ResourceRoutes {

    private static final AggregatedList RESOURCES = new AggregatedList("resources/list", "resources", "resources",
            (backend, resource) -> exposeUri(backend, resource, "uri"));
    private static final AggregatedList TEMPLATES = new AggregatedList("resources/templates/list", "resources",
            "resourceTemplates", (backend, template) -> exposeUri(backend, template, "uriTemplate"));

    private final List<GatewayBackend> backends;
    private final BackendAccess access;
    private final Executor executor;
    private final GatewaySettings settings;
    private final ResourceSubscriptions.Scope subscriptions;

    ResourceRoutes(List<GatewayBackend> backends, BackendAccess access, Executor executor, GatewaySettings settings,
                   ResourceSubscriptions.Scope subscriptions) {
        this.backends = backends;
        this.access = access;
        this.executor = executor;
        this.settings = settings;
        this.subscriptions = subscriptions;
    }

    JsonRpcMessage list(JsonRpcMessage request) {
        return RESOURCES.answer(request, backends, access, executor, settings);
    }

    JsonRpcMessage templates(JsonRpcMessage request) {
        return TEMPLATES.answer(request, backends, access, executor, settings);
    }

    JsonRpcMessage read(JsonRpcMessage request, ServerRequestHandler clientRequests) {
        return route(request, (backend, uri) -> {
            JsonObject result = forward(request, backend, uri, clientRequests);
            return result.get("contents") instanceof JsonArray contents
                    ? JSON.createObjectBuilder(result).add("contents", exposeAll(backend, contents)).build()
                    : result;
        });
    }

    JsonRpcMessage subscribe(JsonRpcMessage request) {
        return route(request, (backend, uri) -> {
            if (!subscriptions.subscribe(backend, uri)) {
                return JsonValue.EMPTY_JSON_OBJECT;
            }
            try {
                return forward(request, backend, uri, null);
            } catch (McpException e) {
                subscriptions.unsubscribe(backend, uri);
                throw e;
            }
        });
    }

    JsonRpcMessage unsubscribe(JsonRpcMessage request) {
        return route(request, (backend, uri) -> subscriptions.unsubscribe(backend, uri)
                ? forward(request, backend, uri, null) : JsonValue.EMPTY_JSON_OBJECT);
    }

    private interface Routed {
        JsonObject serve(GatewayBackend backend, String uri) throws McpException;
    }

    private JsonRpcMessage route(JsonRpcMessage request, Routed routed) {
        String exposed = request.params().get("uri") instanceof JsonString s ? s.getString() : null;
        Optional<ResourceUri> uri = ResourceUri.parse(exposed);
        Optional<GatewayBackend> backend = uri.flatMap(u -> GatewayBackend.named(backends, u.backend()));
        if (backend.isEmpty()) {
            // the code the SDK servers use for an unknown resource
            return GatewayErrors.error(request.id(), GatewayErrors.RESOURCE_NOT_FOUND, "Resource not found: " + exposed,
                    exposed == null ? null : JSON.createObjectBuilder().add("uri", exposed).build());
        }
        try {
            return JsonRpcMessage.result(request.id(), routed.serve(backend.get(), uri.get().uri()));
        } catch (McpException e) {
            return GatewayErrors.fromBackend(request.id(), backend.get().name(), request.method(), e);
        }
    }

    private JsonObject forward(JsonRpcMessage request, GatewayBackend backend, String uri,
                               ServerRequestHandler clientRequests) throws McpException {
        JsonObject params = JSON.createObjectBuilder(request.params()).add("uri", uri).build();
        return access.request(backend, request.method(), params, backend.timeout(), null, clientRequests);
    }

    private static JsonArray exposeAll(GatewayBackend backend, JsonArray contents) {
        var exposed = JSON.createArrayBuilder();
        for (JsonValue content : contents) {
            exposed.add(content instanceof JsonObject c ? exposeUri(backend, c, "uri").orElse(c) : content);
        }
        return exposed.build();
    }

    private static Optional<JsonObject> exposeUri(GatewayBackend backend, JsonObject item, String field) {
        if (!(item.get(field) instanceof JsonString uri)) {
            return Optional.empty();
        }
        return Optional.of(JSON.createObjectBuilder(item)
                .add(field, new ResourceUri(backend.name(), uri.getString()).exposed()).build());
    }
}
