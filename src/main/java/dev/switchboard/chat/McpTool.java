package dev.switchboard.chat;

import dev.switchboard.backend.tools.BackendNames;
import dev.switchboard.backend.tools.GatewayToolName;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * An enabled tool of one of the assistant's MCP servers, as the LLM sees it (the MCP client system's {@code McpToolWithServer}).
 *
 * @param displayName the LLM-facing function name {@code mcp__{server}__{tool}} ({@code workspace__{tool}} for built-ins)
 * @param serverId    null for a built-in tool, which Switchboard runs itself
 * @param autoApprove whether Switchboard may run it without asking (the server's {@code autoApproveTools})
 */
public record McpTool(String displayName, Long serverId, String serverName, String toolName, String description,
                      JsonObject inputSchema, boolean autoApprove) {

    /** The backend name of the built-in workspace tools ({@code workspace__read_file} and so on). */
    static final String BUILT_IN_BACKEND = "workspace";

    /** The backend as the gateway and the audit trail name it: the sanitised server name, {@code workspace} for built-ins. */
    public String backendName() {
        return serverId == null ? BUILT_IN_BACKEND : BackendNames.sanitise(serverName);
    }

    /**
     * The name the tenant's allowlist and the audit trail know the tool by: the gateway's {@code backend__tool}, so one
     * allowlist entry covers a tool whether it is called through {@code /mcp} or by a chat run.
     */
    public String policyName() {
        return backendName() + GatewayToolName.SEPARATOR + toolName;
    }

    /** The OpenAI {@code tools[]} entry. */
    public JsonObject toFunction() {
        return Json.createObjectBuilder().add("type", "function").add("function", Json.createObjectBuilder()
                .add("name", displayName).add("description", description).add("parameters", inputSchema)).build();
    }
}
