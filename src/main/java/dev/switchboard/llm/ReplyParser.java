package dev.switchboard.llm;

import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Reads a provider's answers: blocking completions, stream chunks, error bodies. */
final class ReplyParser {

    private static final int QUOTE_LIMIT = 200;

    private ReplyParser() {
    }

    static JsonObject object(String text, String what) throws LlmException {
        try (var reader = JSON.createReader(new StringReader(text))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new LlmException(LlmException.Kind.MALFORMED, "The LLM provider sent " + what + " that is not a JSON object ("
                    + e.getMessage() + "): " + quote(text), 0, e);
        }
    }

    /** A blocking {@code chat.completion}. */
    static LlmReply completion(String text) throws LlmException {
        JsonObject json = object(text, "a completion");
        failIfError(json);
        JsonArray choices = json.get("choices") instanceof JsonArray a ? a : null;
        if (choices == null || choices.isEmpty() || !(choices.get(0) instanceof JsonObject choice)
                || !(choice.get("message") instanceof JsonObject message)) {
            throw new LlmException(LlmException.Kind.MALFORMED, "The LLM provider's completion has no choices[0].message: " + quote(text));
        }
        List<ToolCall> calls = new ArrayList<>();
        if (message.get("tool_calls") instanceof JsonArray toolCalls) {
            for (JsonValue value : toolCalls) {
                if (!(value instanceof JsonObject call) || !(call.get("function") instanceof JsonObject function)
                        || !(function.get("name") instanceof JsonString name) || name.getString().isEmpty()) {
                    throw new LlmException(LlmException.Kind.MALFORMED, "The LLM provider sent a tool call without a function name: " + quote(text));
                }
                calls.add(new ToolCall(idOrNew(call.getString("id", null)), name.getString(), arguments(function.get("arguments"))));
            }
        }
        String content = message.get("content") instanceof JsonString s ? s.getString() : "";
        String finish = choice.get("finish_reason") instanceof JsonString s ? s.getString() : null;
        return new LlmReply(json.getString("model", null), content, calls, finish,
                json.get("usage") instanceof JsonObject usage ? Usage.of(usage) : Usage.NONE);
    }

    /** Some providers report failures as a 200 body (or stream chunk) with an {@code error} object. */
    static void failIfError(JsonObject json) throws LlmException {
        if (json.containsKey("error") && json.get("error").getValueType() != JsonValue.ValueType.NULL) {
            throw new LlmException(LlmException.Kind.FAILED, "The LLM provider reported an error: " + errorMessage(json), 0, null);
        }
    }

    /** The provider's own message from an error body ({@code {"error":{"message":...}}}, or the text itself). */
    static String errorMessage(String body) {
        try (var reader = JSON.createReader(new StringReader(body))) {
            return errorMessage(reader.readObject());
        } catch (JsonException | IllegalStateException e) {
            return quote(body);
        }
    }

    private static String errorMessage(JsonObject json) {
        JsonValue error = json.get("error");
        if (error instanceof JsonObject o && o.get("message") instanceof JsonString m) {
            return m.getString();
        }
        if (error instanceof JsonString s) {
            return s.getString();
        }
        return quote(json.toString());
    }

    /** Arguments as JSON text; Ollama's native shape sends an object instead of a string. */
    static String arguments(JsonValue value) {
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return "";
        }
        return value instanceof JsonString s ? s.getString() : value.toString();
    }

    static String idOrNew(String id) {
        return id == null || id.isEmpty() ? "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24) : id;
    }

    static String quote(String text) {
        if (text == null || text.isEmpty()) {
            return "(empty)";
        }
        String flat = text.strip().replaceAll("\\s+", " ");
        return flat.length() <= QUOTE_LIMIT ? flat : flat.substring(0, QUOTE_LIMIT) + "...";
    }
}
