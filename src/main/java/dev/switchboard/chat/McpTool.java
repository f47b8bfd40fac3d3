package dev.switchboard.chat;

import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * An enabled tool of one of the assistant's MCP servers, as the LLM sees it (seed 004 {@code McpToolWithServer}).
 *
 * @param displayName the LLM-facing function name {@code mcp__{server}__{tool}} ({@code workspace__{tool}} for built-ins)
 * @param serverId    null for a built-in tool, which Switchboard runs itself
 * @param autoApprove whether Switchboard may run it without asking (the server's {@code autoApproveTools})
 */
public record McpTool(String displayName, Long serverId, String serverName, String toolName, String description,
                      JsonObject inputSchema, boolean autoApprove) {

    /** The OpenAI {@code tools[]} entry. */
    public JsonObject toFunction() {
        return Json.createObjectBuilder().add("type", "function").add("function", Json.createObjectBuilder()
                .add("name", displayName).add("description", description).add("parameters", inputSchema)).build();
    }
}
