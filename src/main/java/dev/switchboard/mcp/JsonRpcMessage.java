package dev.switchboard.mcp;

import dev.switchboard.platform.json.TopLevelKeys;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * One JSON-RPC 2.0 message kept as its raw JSON object. Only {@code id}, {@code method}, {@code params},
 * {@code result} and {@code error} are ever read, so fields a newer peer adds pass through untouched.
 */
public record JsonRpcMessage(JsonObject json) {

    public enum Kind { REQUEST, NOTIFICATION, RESPONSE, INVALID }

    /** JSON-RPC "parse error". */
    public static final int PARSE_ERROR = -32700;

    public JsonRpcMessage {
        Objects.requireNonNull(json, "json");
    }

    /** Parses a single message; a JSON array (a 2025-03-26 batch) is rejected here, see {@link #parseAll}. */
    public static JsonRpcMessage parse(String text) throws McpException {
        JsonStructure structure = read(text);
        if (!(structure instanceof JsonObject object)) {
            throw new McpException(McpException.Kind.PROTOCOL, "expected a JSON-RPC object, got: " + excerpt(text));
        }
        return new JsonRpcMessage(object);
    }

    /** Parses a single message or a batch array into its messages. */
    public static List<JsonRpcMessage> parseAll(String text) throws McpException {
        JsonStructure structure = read(text);
        if (structure instanceof JsonObject object) {
            return List.of(new JsonRpcMessage(object));
        }
        List<JsonRpcMessage> messages = new ArrayList<>();
        for (JsonValue value : (JsonArray) structure) {
            if (!(value instanceof JsonObject object)) {
                throw new McpException(McpException.Kind.PROTOCOL, "batch element is not an object: " + excerpt(text));
            }
            messages.add(new JsonRpcMessage(object));
        }
        return messages;
    }

    public static JsonRpcMessage request(JsonValue id, String method, JsonObject params) {
        JsonObjectBuilder b = JSON.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", method);
        if (params != null) {
            b.add("params", params);
        }
        return new JsonRpcMessage(b.build());
    }

    public static JsonRpcMessage notification(String method, JsonObject params) {
        JsonObjectBuilder b = JSON.createObjectBuilder().add("jsonrpc", "2.0").add("method", method);
        if (params != null) {
            b.add("params", params);
        }
        return new JsonRpcMessage(b.build());
    }

    public static JsonRpcMessage result(JsonValue id, JsonObject result) {
        return new JsonRpcMessage(JSON.createObjectBuilder()
                .add("jsonrpc", "2.0").add("id", id).add("result", result).build());
    }

    public static JsonRpcMessage error(JsonValue id, int code, String message) {
        return new JsonRpcMessage(JSON.createObjectBuilder()
                .add("jsonrpc", "2.0").add("id", id)
                .add("error", JSON.createObjectBuilder().add("code", code).add("message", message))
                .build());
    }

    public Kind kind() {
        boolean hasId = json.containsKey("id") && json.get("id").getValueType() != JsonValue.ValueType.NULL;
        boolean hasMethod = method() != null;
        if (hasMethod) {
            return hasId ? Kind.REQUEST : Kind.NOTIFICATION;
        }
        if (hasId && (json.containsKey("result") || json.containsKey("error"))) {
            return Kind.RESPONSE;
        }
        return Kind.INVALID;
    }

    /** The id, or null when absent. */
    public JsonValue id() {
        return json.get("id");
    }

    /** Key under which a request id is correlated with its response: the id's JSON text. */
    public String idKey() {
        JsonValue id = id();
        return id == null ? null : id.toString();
    }

    public String method() {
        JsonValue method = json.get("method");
        return method != null && method.getValueType() == JsonValue.ValueType.STRING ? json.getString("method") : null;
    }

    /** The params object, or an empty object when absent or not an object. */
    public JsonObject params() {
        JsonValue params = json.get("params");
        return params instanceof JsonObject object ? object : JsonValue.EMPTY_JSON_OBJECT;
    }

    public String toJson() {
        return json.toString();
    }

    /**
     * A message from a peer that is not trusted (a backend): the message, or, when it cannot be read (not JSON, or
     * beyond the reading limits) yet is plainly an answer (its top level names an {@code id} and a {@code result} or
     * {@code error} before the point where reading failed), a -32700 error answer to that id, so the call waiting for
     * it fails at once with the reason instead of at its timeout.
     */
    public static JsonRpcMessage parseFromPeer(String text) throws McpException {
        try {
            return parse(text);
        } catch (McpException e) {
            JsonValue id = answeredId(text);
            if (id == null) {
                throw e;
            }
            return error(id, PARSE_ERROR, "The peer's answer could not be read: " + e.getMessage());
        }
    }

    /** The id of an answer, skimmed from its top-level keys up to where the text stops being readable; else null. */
    private static JsonValue answeredId(String text) {
        JsonValue[] id = {null};
        boolean[] answer = {false};
        boolean[] request = {false};
        TopLevelKeys.scan(JSON, text, (key, parser) -> {
            request[0] |= key.equals("method");
            answer[0] |= key.equals("result") || key.equals("error");
            if (key.equals("id")) {
                id[0] = scalarId(parser);
            }
            // enough is known once the id and the kind are: the rest of a text that may be megabytes is not skimmed
            return !request[0] && !(answer[0] && id[0] != null);
        });
        return answer[0] && !request[0] ? id[0] : null;
    }

    private static JsonValue scalarId(JsonParser parser) {
        JsonParser.Event value = parser.next();
        if (value == JsonParser.Event.VALUE_STRING) {
            return JSON.createValue(parser.getString());
        }
        if (value == JsonParser.Event.VALUE_NUMBER && parser.isIntegralNumber() && parser.getString().length() <= 18) {
            return JSON.createValue(parser.getLong());
        }
        return null;
    }

    private static JsonStructure read(String text) throws McpException {
        try (JsonReader reader = JSON.createReader(new StringReader(text))) {
            return reader.read();
        } catch (JsonException | IllegalStateException e) {
            throw new McpException(McpException.Kind.PROTOCOL, "not JSON (" + e.getMessage() + "): " + excerpt(text), e);
        }
    }

    /** A short, single-line prefix of a peer's text, for error messages. */
    public static String excerpt(String text) {
        if (text == null) {
            return "";
        }
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }
}
