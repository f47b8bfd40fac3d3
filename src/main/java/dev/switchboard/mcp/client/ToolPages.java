package dev.switchboard.mcp.client;

import dev.switchboard.mcp.McpException;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Reads every page of a backend's {@code tools/list}, whichever era the client speaks, guarded against endless cursors. */
final class ToolPages {

    /** Guards against a server that hands out cursors forever. */
    static final int MAX_PAGES = 1_000;

    /** One {@code tools/list} request of the client: its params, and the time left for it. */
    @FunctionalInterface
    interface PageRequest {
        JsonObject list(JsonObject params, Duration timeout) throws McpException;
    }

    private ToolPages() {
    }

    static List<JsonObject> all(PageRequest request, Duration timeout) throws McpException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<JsonObject> tools = new ArrayList<>();
        Set<String> seenCursors = new HashSet<>();
        String cursor = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            JsonObject params = cursor == null ? JsonValue.EMPTY_JSON_OBJECT : JSON.createObjectBuilder().add("cursor", cursor).build();
            JsonObject result = request.list(params, remaining(deadline));
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
        throw new McpException(McpException.Kind.PROTOCOL, "tools/list did not end after " + MAX_PAGES + " pages");
    }

    private static Duration remaining(long deadlineNanos) throws McpException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new McpException(McpException.Kind.TIMEOUT, "tools/list: deadline passed between pages");
        }
        return Duration.ofNanos(left);
    }
}
