package dev.switchboard.mcp.client;

import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Function;
import java.util.Set;
import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** An initialized MCP session; the typed face of a {@link JsonRpcPeer}. */
public final class DefaultMcpClient implements McpClient {

    /** Guards against a server that hands out cursors forever. */
    private static final int MAX_TOOL_PAGES = 1_000;

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
        long deadline = System.nanoTime() + timeout.toNanos();
        List<JsonObject> tools = new ArrayList<>();
        Set<String> seenCursors = new HashSet<>();
        String cursor = null;
        for (int page = 0; page < MAX_TOOL_PAGES; page++) {
            JsonObject params = cursor == null ? JsonValue.EMPTY_JSON_OBJECT : JSON.createObjectBuilder().add("cursor", cursor).build();
            JsonObject result = peer.request("tools/list", params, remaining(deadline, "tools/list"), null);
            if (!(result.get("tools") instanceof JsonArray pageTools)) {
                throw new McpException(McpException.Kind.PROTOCOL, "tools/list result has no tools array");
            }
            for (JsonValue tool : pageTools) {
                if (tool instanceof JsonObject toolObject) {
                    tools.add(toolObject);
                }
            }
            cursor = result.get("nextCursor") instanceof JsonString next ? next.getString() : null;
            if (cursor == null) {
                return tools;
            }
            if (!seenCursors.add(cursor)) {
                throw new McpException(McpException.Kind.PROTOCOL, "tools/list repeated cursor '" + cursor + "'");
            }
        }
        throw new McpException(McpException.Kind.PROTOCOL, "tools/list did not end after " + MAX_TOOL_PAGES + " pages");
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

    private static Duration remaining(long deadlineNanos, String what) throws McpException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new McpException(McpException.Kind.TIMEOUT, what + ": deadline passed between pages");
        }
        return Duration.ofNanos(left);
    }
}
