package dev.switchboard.llm;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.util.List;

/**
 * Picks the provider by the request's model: the first route that matches (so {@code llama3.2} can go to Ollama
 * and {@code doubao-*} to Volcengine Ark), else the default provider. A request without a model gets the
 * default provider's default model.
 */
public final class RoutingLlmClient implements LlmClient {

    private final LlmClient fallback;
    private final List<ModelRoute> routes;

    public RoutingLlmClient(LlmClient fallback, List<ModelRoute> routes) {
        this.fallback = fallback;
        this.routes = List.copyOf(routes);
    }

    @Override
    public String defaultModel() {
        return fallback.defaultModel();
    }

    @Override
    public LlmReply complete(JsonObject request) throws LlmException {
        return clientFor(request).complete(request);
    }

    @Override
    public LlmReply stream(JsonObject request, StreamListener listener) throws LlmException {
        return clientFor(request).stream(request, listener);
    }

    LlmClient clientFor(JsonObject request) {
        if (!(request.get("model") instanceof JsonString model)) {
            return fallback;
        }
        return routes.stream().filter(r -> r.matches(model.getString())).map(ModelRoute::client).findFirst().orElse(fallback);
    }
}
