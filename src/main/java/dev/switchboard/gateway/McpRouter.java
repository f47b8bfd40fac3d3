package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.platform.json.JsonProviders;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.function.Consumer;

/** Serves the client requests of one client-facing endpoint: the aggregated {@code /mcp} or one backend's passthrough. */
public interface McpRouter {

    /** The result of {@code initialize} at the negotiated version. */
    JsonObject initializeResult(String protocolVersion);

    /**
     * @param progress       receives {@code notifications/progress} params (with the client's own token) for a request
     *                       that asked for progress; null when the client cannot receive them on this exchange
     * @param clientRequests sends the requests a backend makes while serving this one (sampling, elicitation, roots)
     *                       to the client that made it; null when it cannot
     * @return the response to send back
     */
    JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests);

    /** Hands a backend's progress to the client under the client's own token; null when nobody listens. */
    static Consumer<JsonObject> progressRelay(JsonObject params, Consumer<JsonObject> progress) {
        JsonValue token = params.get("_meta") instanceof JsonObject meta ? meta.get("progressToken") : null;
        if (token == null || progress == null) {
            return null;
        }
        return backendProgress -> progress.accept(JsonProviders.JSON.createObjectBuilder(backendProgress)
                .add("progressToken", token).build());
    }
}
