package dev.switchboard.gateway;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.client.InitializeResult;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/** How the router reaches backends on behalf of one caller. */
public interface BackendAccess {

    /** Every tool of the backend, in its own order (all pages). */
    List<JsonObject> listTools(GatewayBackend backend, Duration timeout) throws McpException;

    /** The backend's answer to {@code initialize} (connecting first if needed). */
    InitializeResult initializeResult(GatewayBackend backend, Duration timeout) throws McpException;

    /** What the backend declared at {@code initialize}. */
    default JsonObject capabilities(GatewayBackend backend, Duration timeout) throws McpException {
        return initializeResult(backend, timeout).capabilities();
    }

    /**
     * Forwards a request with its params as given; returns the backend's raw result.
     *
     * @param progress       receives the backend's progress params for this request, or null
     * @param serverRequests answers the backend's requests made while serving this one, or null
     */
    JsonObject request(GatewayBackend backend, String method, JsonObject params, Duration timeout,
                       Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException;
}
