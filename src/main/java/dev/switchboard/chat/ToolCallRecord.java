package dev.switchboard.chat;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The MCP client system's {@code ToolCallRecord}: one tool call inside an assistant message, updated as it progresses.
 *
 * @param serverId  null for a built-in tool, or one the LLM named but no server has
 * @param arguments the parsed arguments, or the raw text as a JSON string when the model wrote invalid JSON
 * @param response  the tool's result (MCP {@code CallToolResult}) or an error object; null until it ran
 */
public record ToolCallRecord(String id, Long serverId, String serverName, String toolName, String displayName,
                             JsonValue arguments, ToolCallStatus status, JsonValue response, boolean isError) {

    public ToolCallRecord with(ToolCallStatus newStatus, JsonValue newResponse, boolean error) {
        return new ToolCallRecord(id, serverId, serverName, toolName, displayName, arguments, newStatus, newResponse, error);
    }

    public JsonObject toJson() {
        JsonObjectBuilder json = JSON.createObjectBuilder().add("id", id);
        if (serverId == null) {
            json.addNull("serverId").addNull("serverName");
        } else {
            json.add("serverId", serverId).add("serverName", serverName);
        }
        json.add("toolName", toolName).add("displayName", displayName).add("arguments", arguments)
                .add("status", status.json());
        if (response != null) {
            json.add("response", response);
        }
        return json.add("isError", isError).build();
    }

    public static ToolCallRecord fromJson(JsonObject json) {
        return new ToolCallRecord(json.getString("id"),
                json.isNull("serverId") ? null : json.getJsonNumber("serverId").longValue(),
                json.isNull("serverName") ? null : json.getString("serverName"),
                json.getString("toolName"), json.getString("displayName"), json.get("arguments"),
                ToolCallStatus.of(json.getString("status")), json.get("response"), json.getBoolean("isError", false));
    }
}
