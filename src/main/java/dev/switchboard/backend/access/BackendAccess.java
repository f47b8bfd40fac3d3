package dev.switchboard.backend.access;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.client.InitializeResult;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** How a caller reaches backends: the gateway's routers and the chat loop, each on behalf of one caller. */
public interface BackendAccess {

    /** Every tool of the backend, in its own order (all pages). */
    List<JsonObject> listTools(BackendTarget backend, Duration timeout) throws McpException;

    /** The backend's answer to {@code initialize} (connecting first if needed). */
    InitializeResult initializeResult(BackendTarget backend, Duration timeout) throws McpException;

    /** What the backend declared at {@code initialize}. */
    default JsonObject capabilities(BackendTarget backend, Duration timeout) throws McpException {
        return initializeResult(backend, timeout).capabilities();
    }

    /**
     * Forwards a request with its params as given; returns the backend's raw result.
     *
     * @param progress       receives the backend's progress params for this request, or null
     * @param serverRequests answers the backend's requests made while serving this one, or null
     */
    JsonObject request(BackendTarget backend, String method, JsonObject params, Duration timeout,
                       Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException;

    /** Calls one tool: {@code tools/call} with its name and arguments, without progress or backend requests. */
    default JsonObject callTool(BackendTarget backend, String tool, JsonObject arguments, Duration timeout)
            throws McpException {
        JsonObject params = JSON.createObjectBuilder().add("name", tool)
                .add("arguments", arguments == null ? JsonValue.EMPTY_JSON_OBJECT : arguments).build();
        return request(backend, "tools/call", params, timeout, null, null);
    }
}
