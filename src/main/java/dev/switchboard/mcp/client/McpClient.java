package dev.switchboard.mcp.client;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One initialized client session with one MCP backend, over any transport.
 * Thread-safe: several calls may be in flight at once. Every call has a deadline; when it passes
 * (or the calling thread is interrupted) the client sends {@code notifications/cancelled} for the
 * request and throws {@link McpException} of kind TIMEOUT (or CANCELLED).
 */
public interface McpClient extends AutoCloseable {

    /** The backend's answer to {@code initialize}. */
    InitializeResult initializeResult();

    /** {@code tools/list}, following {@code nextCursor} until the last page; raw tool objects in order. */
    List<JsonObject> listTools(Duration timeout) throws McpException;

    /**
     * {@code tools/call}; returns the raw {@code CallToolResult} ({@code isError: true} is a result, not an exception).
     *
     * @param progress receives each {@code notifications/progress} params object for this call, or null
     */
    JsonObject callTool(String name, JsonObject arguments, Duration timeout, Consumer<JsonObject> progress)
            throws McpException;

    /**
     * Any request, params passed through as given (a gateway forwarding a client's message). Returns the raw
     * result object; a JSON-RPC error answer is an {@link McpException} of kind RPC_ERROR.
     *
     * @param progress       receives each {@code notifications/progress} params object for this request, or null;
     *                       when given, the request carries a progress token of this client's own
     * @param serverRequests answers the requests the backend sends while serving this one (sampling, elicitation,
     *                       roots), or null
     */
    JsonObject request(String method, JsonObject params, Duration timeout, Consumer<JsonObject> progress,
                       ServerRequestHandler serverRequests) throws McpException;

    /** {@code ping}. */
    void ping(Duration timeout) throws McpException;

    /** Called (on a pool thread) whenever the backend sends {@code notifications/tools/list_changed}. */
    void onToolsListChanged(Runnable listener);

    /** Called (on a pool thread) whenever the backend sends a notification with this method; params as sent. */
    void onNotification(String method, Consumer<JsonObject> listener);

    /** Called once when the connection is lost for any reason other than {@link #close()}. */
    void onConnectionLost(Consumer<Throwable> listener);

    /** The backend's own session id for this connection ({@code Mcp-Session-Id}), or null when it has none. */
    default String backendSessionId() {
        return null;
    }

    /** Sends a notification to the backend (e.g. {@code notifications/roots/list_changed} from a gateway client). */
    void notify(String method, JsonObject params) throws McpException;

    /**
     * Who answers the backend's requests that belong to none of ours ({@code roots/list} asked on its own); the finder
     * returns null when nobody can be asked.
     */
    void onServerRequestOutsideCalls(Function<String, ServerRequestHandler> finder);

    /** True until closed or lost. */
    boolean isOpen();

    /** Ends the session: DELETE for streamable HTTP, kills the process for stdio. Idempotent, never throws. */
    @Override
    void close();
}
