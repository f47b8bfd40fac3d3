package dev.switchboard.chat;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** What the LLM reads of an MCP {@code CallToolResult}: its text parts, or the whole result when it has others. */
final class ToolResultText {

    private ToolResultText() {
    }

    static String of(JsonObject result) {
        if (!(result.get("content") instanceof jakarta.json.JsonArray parts) || parts.isEmpty()) {
            return result.toString();
        }
        StringBuilder text = new StringBuilder();
        for (JsonValue part : parts) {
            if (!(part instanceof JsonObject p) || !"text".equals(p.getString("type", ""))) {
                return result.toString();
            }
            if (!text.isEmpty()) {
                text.append('\n');
            }
            text.append(p.getString("text", ""));
        }
        return text.toString();
    }
}
