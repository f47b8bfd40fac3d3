package dev.switchboard.chat;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.io.StringReader;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** A stored message as the API shows it; an assistant message with its {@code toolCalls} records (the MCP client system). */
final class MessageJson {

    private MessageJson() {
    }

    static JsonObjectBuilder of(ChatMessage m) {
        JsonObjectBuilder json = Json.createObjectBuilder().add("id", m.getId()).add("role", m.getRole())
                .add("content", nullable(m.getContent()));
        if ("assistant".equals(m.getRole())) {
            json.add("toolCalls", m.getToolCallsJson() == null ? JsonValue.EMPTY_JSON_ARRAY
                    : JSON.createReader(new StringReader(m.getToolCallsJson())).readArray());
            json.add("finishReason", nullable(m.getFinishReason()));
        }
        if (m.getToolCallId() != null) {
            json.add("toolCallId", m.getToolCallId());
        }
        return json.add("createdAt", m.getCreatedAt()).add("updatedAt", m.getUpdatedAt());
    }

    private static JsonValue nullable(String value) {
        return value == null ? JsonValue.NULL : Json.createValue(value);
    }
}
