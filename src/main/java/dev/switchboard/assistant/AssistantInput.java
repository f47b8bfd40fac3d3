package dev.switchboard.assistant;

import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import jakarta.json.JsonObject;

import java.util.Set;

/** The body of {@code POST}/{@code PUT /api/assistants}; null means absent. Unknown fields are refused. */
public record AssistantInput(String name, String description, String systemPrompt, String model,
                             Boolean knowledgeBaseEnabled) {

    private static final Set<String> FIELDS = Set.of("name", "description", "systemPrompt", "model", "knowledgeBaseEnabled");
    private static final Set<String> ECHOED = Set.of("id", "userId", "createdAt", "updatedAt", "mcpServerIds");

    public static AssistantInput parse(JsonObject body) {
        BodyFields fields = BodyFields.of(body, FIELDS, ECHOED);
        return new AssistantInput(text(fields, "name", 100), text(fields, "description", 1000),
                text(fields, "systemPrompt", 100_000), text(fields, "model", 200), fields.bool("knowledgeBaseEnabled"));
    }

    private static String text(BodyFields fields, String key, int max) {
        String text = fields.string(key);
        if (text != null && text.length() > max) {
            throw ApiException.badRequest("too_long", "'" + key + "' is longer than " + max + " characters");
        }
        return text;
    }
}
