package dev.switchboard.chat;

import dev.switchboard.mcp.McpException;
import jakarta.json.JsonObject;

/** Runs one MCP tool as the caller of the chat request. */
@FunctionalInterface
public interface ToolInvoker {

    /** The backend's {@code CallToolResult}; {@code isError: true} is a result, not an exception. */
    JsonObject call(McpTool tool, JsonObject arguments) throws McpException;
}
