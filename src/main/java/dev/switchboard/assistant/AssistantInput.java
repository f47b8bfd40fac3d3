package dev.switchboard.assistant;

import dev.switchboard.platform.ApiException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Set;

/** The body of {@code POST}/{@code PUT /api/assistants}; null means absent. Unknown fields are refused. */
public record AssistantInput(String name, String description, String systemPrompt, String model,
                             Boolean knowledgeBaseEnabled) {

    private static final Set<String> FIELDS = Set.of("name", "description", "systemPrompt", "model", "knowledgeBaseEnabled");
    private static final Set<String> ECHOED = Set.of("id", "userId", "createdAt", "updatedAt", "mcpServerIds");

    public static AssistantInput parse(JsonObject body) {
        for (String key : body.keySet()) {
            if (!FIELDS.contains(key) && !ECHOED.contains(key)) {
                throw ApiException.badRequest("unknown_field", "Unknown field '" + key + "'. Allowed fields: "
                        + String.join(", ", FIELDS.stream().sorted().toList()));
            }
        }
        return new AssistantInput(text(body, "name", 100), text(body, "description", 1000),
                text(body, "systemPrompt", 100_000), text(body, "model", 200), bool(body, "knowledgeBaseEnabled"));
    }

    private static String text(JsonObject body, String key, int max) {
        JsonValue value = body.get(key);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonString s)) {
            throw ApiException.badRequest("invalid_type", "'" + key + "' must be a string");
        }
        if (s.getString().length() > max) {
            throw ApiException.badRequest("too_long", "'" + key + "' is longer than " + max + " characters");
        }
        return s.getString();
    }

    private static Boolean bool(JsonObject body, String key) {
        JsonValue value = body.get(key);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value != JsonValue.TRUE && value != JsonValue.FALSE) {
            throw ApiException.badRequest("invalid_type", "'" + key + "' must be true or false");
        }
        return value == JsonValue.TRUE;
    }
}
