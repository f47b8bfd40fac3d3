package dev.switchboard.mcp.client;

import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** An initialized MCP session; the typed face of a {@link JsonRpcPeer}. */
public final class DefaultMcpClient implements McpClient {

    private final JsonRpcPeer peer;
    private final InitializeResult initializeResult;

    DefaultMcpClient(JsonRpcPeer peer, InitializeResult initializeResult) {
        this.peer = peer;
        this.initializeResult = initializeResult;
    }

    @Override
    public InitializeResult initializeResult() {
        return initializeResult;
    }

    @Override
    public void notify(String method, JsonObject params) throws McpException {
        peer.notify(method, params);
    }

    @Override
    public void onServerRequestOutsideCalls(Function<String, ServerRequestHandler> finder) {
        peer.onServerRequestOutsideCalls(finder);
    }

    @Override
    public String backendSessionId() {
        return peer.transport().sessionId();
    }

    @Override
    public List<JsonObject> listTools(Duration timeout) throws McpException {
        return ToolPages.all((params, left) -> peer.request("tools/list", params, left, null), timeout);
    }

    @Override
    public JsonObject callTool(String name, JsonObject arguments, Duration timeout, Consumer<JsonObject> progress)
            throws McpException {
        JsonObject params = JSON.createObjectBuilder()
                .add("name", name)
                .add("arguments", arguments == null ? JsonValue.EMPTY_JSON_OBJECT : arguments)
                .build();
        return peer.request("tools/call", params, timeout, progress);
    }

    @Override
    public JsonObject request(String method, JsonObject params, Duration timeout, Consumer<JsonObject> progress,
                              ServerRequestHandler serverRequests) throws McpException {
        return peer.request(method, params, timeout, progress, serverRequests);
    }

    @Override
    public void ping(Duration timeout) throws McpException {
        peer.request("ping", null, timeout, null);
    }

    @Override
    public void onToolsListChanged(Runnable listener) {
        peer.onNotification("notifications/tools/list_changed", params -> listener.run());
    }

    @Override
    public void onNotification(String method, Consumer<JsonObject> listener) {
        peer.onNotification(method, listener);
    }

    @Override
    public void onConnectionLost(Consumer<Throwable> listener) {
        peer.onConnectionLost(listener::accept);
    }

    @Override
    public boolean isOpen() {
        return peer.isOpen();
    }

    @Override
    public void close() {
        peer.close();
    }
}
