package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import dev.switchboard.platform.json.WholeNumbers;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * A {@code POST /api/chat/completions} body (OpenAI plus the chat API's fields), checked.
 *
 * @param options     every other field, passed to the provider as is (model, temperature, max_tokens, tool_choice, top_p, ...)
 * @param assistantId from {@code assistant_id} or the {@code X-Assistant-Id} header; null for none
 */
public record ChatRequest(List<JsonObject> messages, List<JsonObject> tools, boolean stream, boolean includeUsage,
                          String sessionId, Long assistantId, JsonObject options) {

    private static final Set<String> ROLES = Set.of("system", "user", "assistant", "tool", "developer");
    private static final Set<String> OWN_FIELDS = Set.of("messages", "tools", "stream", "stream_options", "session_id", "assistant_id");
    private static final int SESSION_ID_LENGTH = 128;

    public static ChatRequest parse(JsonObject body, String assistantHeader) {
        BodyFields fields = BodyFields.open(body);
        List<JsonObject> messages = messages(fields);
        List<JsonObject> tools = tools(fields.array("tools"));
        boolean stream = Boolean.TRUE.equals(fields.bool("stream"));
        JsonObject streamOptions = fields.object("stream_options");
        boolean includeUsage = streamOptions != null && streamOptions.getBoolean("include_usage", false);
        String sessionId = fields.string("session_id");
        if (sessionId != null && (sessionId.isBlank() || sessionId.length() > SESSION_ID_LENGTH)) {
            throw ApiException.badRequest("invalid_session_id", "'session_id' must be 1 to " + SESSION_ID_LENGTH + " characters");
        }
        Long assistantId = assistantId(body.get("assistant_id"), assistantHeader);
        ToolChoice.of(body.get("tool_choice"));
        fields.number("temperature");
        fields.number("max_tokens");
        fields.string("model");
        JsonObjectBuilder options = JSON.createObjectBuilder();
        body.forEach((name, value) -> {
            if (!OWN_FIELDS.contains(name) && value.getValueType() != JsonValue.ValueType.NULL) {
                options.add(name, value);
            }
        });
        return new ChatRequest(messages, tools, stream, includeUsage, sessionId, assistantId, options.build());
    }

    public String model() {
        return options.get("model") instanceof JsonString s ? s.getString() : null;
    }

    /** The newest user text, for a conversation's title. */
    public String lastUserText() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonObject message = messages.get(i);
            if ("user".equals(message.getString("role")) && message.get("content") instanceof JsonString text) {
                return text.getString();
            }
        }
        return null;
    }

    /** The messages after the last assistant message: what the caller adds with this request. */
    public List<JsonObject> newMessages() {
        int start = 0;
        for (int i = 0; i < messages.size(); i++) {
            if ("assistant".equals(messages.get(i).getString("role"))) {
                start = i + 1;
            }
        }
        return messages.subList(start, messages.size());
    }

    private static List<JsonObject> messages(BodyFields fields) {
        JsonArray array = fields.requiredArray("messages");
        if (array.isEmpty()) {
            throw ApiException.badRequest("missing_field", "'messages' is empty: it needs at least one message");
        }
        List<JsonObject> messages = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            if (!(array.get(i) instanceof JsonObject message) || !(message.get("role") instanceof JsonString role)
                    || !ROLES.contains(role.getString())) {
                throw ApiException.badRequest("invalid_message", "messages[" + i + "] needs a 'role' of system, user, assistant or tool");
            }
            if ("tool".equals(role.getString()) && !(message.get("tool_call_id") instanceof JsonString)) {
                throw ApiException.badRequest("invalid_message", "messages[" + i + "] has role 'tool' but no 'tool_call_id'");
            }
            messages.add(message);
        }
        return messages;
    }

    private static List<JsonObject> tools(JsonArray array) {
        if (array == null) {
            return List.of();
        }
        List<JsonObject> tools = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            if (!(array.get(i) instanceof JsonObject tool) || !"function".equals(tool.getString("type", ""))
                    || !(tool.get("function") instanceof JsonObject function) || !(function.get("name") instanceof JsonString)) {
                throw ApiException.badRequest("invalid_tool", "tools[" + i + "] must be {\"type\":\"function\",\"function\":{\"name\":...}}");
            }
            tools.add(tool);
        }
        return tools;
    }

    private static Long assistantId(JsonValue value, String header) {
        String text;
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            text = header;
        } else if (value instanceof JsonNumber) {
            return WholeNumbers.asLong(value).orElseThrow(() -> BodyFields.wrongType("assistant_id", "a number", value));
        } else if (value instanceof JsonString s) {
            text = s.getString();
        } else {
            throw BodyFields.wrongType("assistant_id", "a number", value);
        }
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_type", "'assistant_id' (or X-Assistant-Id) must be a number");
        }
    }
}
