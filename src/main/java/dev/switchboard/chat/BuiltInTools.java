package dev.switchboard.chat;

import dev.switchboard.workspace.Workspace;
import dev.switchboard.workspace.WorkspaceTools;
import jakarta.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The built-in workspace tools as the loop sees them: tools without a server ({@code serverId} null), run by
 * Switchboard in the session's workspace. They are auto-approved: they cannot reach anything outside the workspace.
 */
final class BuiltInTools {

    private static final Map<String, McpTool> TOOLS = new LinkedHashMap<>();

    static {
        for (JsonObject definition : WorkspaceTools.definitions()) {
            String name = definition.getString("name");
            String displayName = WorkspaceTools.PREFIX + name;
            TOOLS.put(displayName, new McpTool(displayName, null, null, name, definition.getString("description"),
                    definition.getJsonObject("inputSchema"), true));
        }
    }

    private BuiltInTools() {
    }

    static Map<String, McpTool> tools() {
        return TOOLS;
    }

    /** Runs built-in tools in {@code workspace}, and hands every other tool to {@code servers}. */
    static ToolInvoker invoker(Workspace workspace, ToolInvoker servers) {
        return (tool, arguments) -> tool.serverId() == null
                ? WorkspaceTools.call(workspace, tool.toolName(), arguments)
                : servers.call(tool, arguments);
    }
}
