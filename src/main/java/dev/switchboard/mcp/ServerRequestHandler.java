package dev.switchboard.mcp;

import jakarta.json.JsonObject;

import java.util.concurrent.CompletableFuture;

/**
 * Answers a request the server sends its client while serving one of the client's requests
 * ({@code sampling/createMessage}, {@code elicitation/create}, {@code roots/list}): a gateway hands it on to its own
 * client. The future completes with the result object, or fails with an {@link McpException}; one of kind RPC_ERROR
 * goes back to the server with its code, message and data.
 */
@FunctionalInterface
public interface ServerRequestHandler {

    CompletableFuture<JsonObject> handle(String method, JsonObject params);
}
