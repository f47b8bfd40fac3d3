package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.backend.tools.GatewayToolName;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code prompts/list} and {@code prompts/get} with prompts named like tools ({@code {backend}__{prompt}}), and
 * {@code completion/complete}, routed by its ref: a prompt by that name, a resource template by its
 * {@link ResourceUri}.
 */
final class PromptRoutes {

    private static final AggregatedList PROMPTS = new AggregatedList("prompts/list", "prompts", "prompts",
            PromptRoutes::exposeName);

    private final List<GatewayBackend> backends;
    private final BackendAccess access;
    private final Executor executor;
    private final GatewaySettings settings;

    PromptRoutes(List<GatewayBackend> backends, BackendAccess access, Executor executor, GatewaySettings settings) {
        this.backends = backends;
        this.access = access;
        this.executor = executor;
        this.settings = settings;
    }

    JsonRpcMessage list(JsonRpcMessage request) {
        return PROMPTS.answer(request, backends, access, executor, settings);
    }

    JsonRpcMessage get(JsonRpcMessage request, ServerRequestHandler clientRequests) {
        String exposed = request.params().get("name") instanceof JsonString s ? s.getString() : null;
        Optional<GatewayToolName> name = GatewayToolName.parse(exposed);
        Optional<GatewayBackend> backend = name.flatMap(n -> GatewayBackend.named(backends, n.backend()));
        if (backend.isEmpty()) {
            return GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "Unknown prompt: " + exposed, null);
        }
        JsonObject params = JSON.createObjectBuilder(request.params()).add("name", name.get().tool()).build();
        JsonRpcMessage answer = forward(request, backend.get(), params, clientRequests);
        return answer.json().get("result") instanceof JsonObject result
                ? JsonRpcMessage.result(request.id(), ContentUris.inPrompt(backend.get().name(), result)) : answer;
    }

    JsonRpcMessage complete(JsonRpcMessage request, ServerRequestHandler clientRequests) {
        JsonObject ref = request.params().get("ref") instanceof JsonObject r ? r : null;
        String type = ref == null ? null : ref.getString("type", null);
        if ("ref/prompt".equals(type)) {
            Optional<GatewayToolName> name = GatewayToolName.parse(ref.getString("name", null));
            Optional<GatewayBackend> backend = name.flatMap(n -> GatewayBackend.named(backends, n.backend()));
            if (backend.isPresent()) {
                return forward(request, backend.get(), withRef(request, JSON.createObjectBuilder(ref)
                        .add("name", name.get().tool()).build()), clientRequests);
            }
        } else if ("ref/resource".equals(type)) {
            Optional<ResourceUri> uri = ResourceUri.parse(ref.getString("uri", null));
            Optional<GatewayBackend> backend = uri.flatMap(u -> GatewayBackend.named(backends, u.backend()));
            if (backend.isPresent()) {
                return forward(request, backend.get(), withRef(request, JSON.createObjectBuilder(ref)
                        .add("uri", uri.get().uri()).build()), clientRequests);
            }
        }
        return GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS,
                "Unknown completion ref: " + (ref == null ? "none" : ref.toString()), null);
    }

    private static JsonObject withRef(JsonRpcMessage request, JsonObject ref) {
        return JSON.createObjectBuilder(request.params()).add("ref", ref).build();
    }

    private JsonRpcMessage forward(JsonRpcMessage request, GatewayBackend backend, JsonObject params,
                                   ServerRequestHandler clientRequests) {
        try {
            return JsonRpcMessage.result(request.id(),
                    access.request(backend, request.method(), params, backend.timeout(), null, clientRequests));
        } catch (McpException e) {
            return GatewayErrors.fromBackend(request.id(), backend.name(), request.method(), e);
        }
    }

    private static Optional<JsonObject> exposeName(GatewayBackend backend, JsonObject prompt) {
        String promptName = prompt.getString("name", null);
        if (promptName == null) {
            return Optional.empty();
        }
        GatewayToolName name = new GatewayToolName(backend.name(), promptName);
        return name.isValid() ? Optional.of(JSON.createObjectBuilder(prompt).add("name", name.exposed()).build())
                : Optional.empty();
    }
}
