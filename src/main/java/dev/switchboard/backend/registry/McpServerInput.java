package dev.switchboard.backend.registry;

import dev.switchboard.platform.ApiException;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The body of {@code POST}/{@code PUT /api/mcp-servers}, type-checked field by field. A null field was
 * absent (PUT leaves it as it is). Unknown fields are refused so a typo never passes silently.
 * The MCP client system's snake_case column names are accepted as aliases of the camelCase fields.
 */
public record McpServerInput(String name, String type, Boolean isActive, String baseUrl,
                             Map<String, String> headers, Integer timeout, String command, List<String> args,
                             Map<String, String> env, List<String> disabledTools, List<String> autoApproveTools,
                             String scope) {

    private static final Map<String, String> ALIASES = Map.of(
            "is_active", "isActive", "base_url", "baseUrl", "disabled_tools", "disabledTools",
            "auto_approve_tools", "autoApproveTools", "url", "baseUrl");
    private static final Set<String> FIELDS = Set.of("name", "type", "isActive", "baseUrl", "headers", "timeout",
            "command", "args", "env", "disabledTools", "autoApproveTools", "scope");
    /** Read-only fields a client may echo back from a GET; ignored. */
    private static final Set<String> ECHOED = Set.of("id", "userId", "createdAt", "updatedAt", "status", "lastError",
            "toolCount");

    public static McpServerInput parse(JsonObject body) {
        Map<String, JsonValue> fields = new LinkedHashMap<>();
        for (var entry : body.entrySet()) {
            String key = ALIASES.getOrDefault(entry.getKey(), entry.getKey());
            if (ECHOED.contains(key)) {
                continue;
            }
            if (!FIELDS.contains(key)) {
                throw ApiException.badRequest("unknown_field", "Unknown field '" + entry.getKey()
                        + "'. Allowed fields: " + String.join(", ", FIELDS.stream().sorted().toList()));
            }
            if (fields.put(key, entry.getValue()) != null) {
                throw ApiException.badRequest("duplicate_field", "Field '" + key + "' given twice (under two names)");
            }
        }
        return new McpServerInput(string(fields, "name"), string(fields, "type"), bool(fields, "isActive"),
                string(fields, "baseUrl"), stringMap(fields, "headers"), integer(fields, "timeout"),
                string(fields, "command"), stringList(fields, "args"), stringMap(fields, "env"),
                stringList(fields, "disabledTools"), stringList(fields, "autoApproveTools"), string(fields, "scope"));
    }

    private static JsonValue present(Map<String, JsonValue> fields, String key) {
        JsonValue value = fields.get(key);
        return value == null || value.getValueType() == JsonValue.ValueType.NULL ? null : value;
    }

    private static String string(Map<String, JsonValue> fields, String key) {
        JsonValue value = present(fields, key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof JsonString s)) {
            throw wrongType(key, "a string", value);
        }
        return s.getString();
    }

    private static Boolean bool(Map<String, JsonValue> fields, String key) {
        JsonValue value = present(fields, key);
        if (value == null) {
            return null;
        }
        return switch (value.getValueType()) {
            case TRUE -> true;
            case FALSE -> false;
            default -> throw wrongType(key, "true or false", value);
        };
    }

    private static Integer integer(Map<String, JsonValue> fields, String key) {
        JsonValue value = present(fields, key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof JsonNumber n) || !n.isIntegral()) {
            throw wrongType(key, "a whole number of seconds", value);
        }
        try {
            return n.intValueExact();
        } catch (ArithmeticException e) {
            throw wrongType(key, "a whole number of seconds", value);
        }
    }

    private static List<String> stringList(Map<String, JsonValue> fields, String key) {
        JsonValue value = present(fields, key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof JsonArray array)) {
            throw wrongType(key, "an array of strings", value);
        }
        for (JsonValue item : array) {
            if (!(item instanceof JsonString)) {
                throw wrongType(key, "an array of strings", value);
            }
        }
        return array.getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    private static Map<String, String> stringMap(Map<String, JsonValue> fields, String key) {
        JsonValue value = present(fields, key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof JsonObject object)) {
            throw wrongType(key, "an object of string values", value);
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (var entry : object.entrySet()) {
            if (!(entry.getValue() instanceof JsonString s)) {
                throw ApiException.badRequest("invalid_type", "'" + key + "." + entry.getKey()
                        + "' must be a string, got " + describe(entry.getValue()));
            }
            map.put(entry.getKey(), s.getString());
        }
        return map;
    }

    private static ApiException wrongType(String key, String expected, JsonValue got) {
        return ApiException.badRequest("invalid_type", "'" + key + "' must be " + expected + ", got " + describe(got));
    }

    private static String describe(JsonValue value) {
        return switch (value.getValueType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "the number " + value;
            case TRUE, FALSE -> "a boolean";
            case NULL -> "null";
        };
    }
}
