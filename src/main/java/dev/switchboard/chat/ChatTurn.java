package dev.switchboard.chat;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What one agent run starts from.
 *
 * @param options     provider parameters passed through (model, temperature, max_tokens, tool_choice, ...)
 * @param messages    the conversation so far, OpenAI shape
 * @param clientTools tools the caller defined: their calls go back to the caller
 * @param mcpTools    the assistant's enabled MCP tools by display name
 * @param stream      whether to ask the provider for a stream (text reaches the listener as it arrives)
 */
public record ChatTurn(JsonObject options, List<JsonObject> messages, List<JsonObject> clientTools,
                       Map<String, McpTool> mcpTools, boolean stream) {

    public ChatTurn {
        messages = List.copyOf(messages);
        clientTools = List.copyOf(clientTools);
        // in the given order: the tools offered to the provider stay in one order from request to request
        mcpTools = Collections.unmodifiableMap(new LinkedHashMap<>(mcpTools));
    }

    public Set<String> clientToolNames() {
        return clientTools.stream().map(t -> t.getJsonObject("function"))
                .map(f -> f.get("name") instanceof JsonString s ? s.getString() : "")
                .collect(Collectors.toUnmodifiableSet());
    }
}
