package dev.switchboard.platform;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The fields of a JSON request body, read by the one set of rules every endpoint answers by (400
 * {@code invalid_request_error}):
 * <ul>
 *   <li>{@code unknown_field}: a field the endpoint does not know (a typo must not be ignored silently);</li>
 *   <li>{@code missing_field}: a required field that is absent or {@code null};</li>
 *   <li>{@code invalid_type}: a field that is present with a value of the wrong JSON type.</li>
 * </ul>
 * A {@code null} value counts as absent for optional fields. Rules about a value of the right type (length,
 * pattern, range) stay with each endpoint, under codes of its own. Parsing the text into a {@link JsonObject} is
 * {@link JsonBodyReader}'s job.
 */
public final class BodyFields {

    private final JsonObject body;

    private BodyFields(JsonObject body) {
        this.body = body;
    }

    /**
     * The body of an endpoint that knows exactly {@code known} (plus {@code ignored}: read-only fields a client may
     * echo back from a GET). A missing body reads as an empty object, so its required fields are missing.
     */
    public static BodyFields of(JsonObject body, Collection<String> known, Collection<String> ignored) {
        JsonObject fields = body == null ? JsonValue.EMPTY_JSON_OBJECT : body;
        for (String name : fields.keySet()) {
            if (!known.contains(name) && !ignored.contains(name)) {
                throw ApiException.badRequest("unknown_field", "Unknown field '" + name + "'. Allowed fields: "
                        + String.join(", ", known.stream().sorted().toList()));
            }
        }
        return new BodyFields(fields);
    }

    public static BodyFields of(JsonObject body, Collection<String> known) {
        return of(body, known, Set.of());
    }

    /** A body whose other fields are passed on as they are (the chat API forwards them to the model provider). */
    public static BodyFields open(JsonObject body) {
        return new BodyFields(body == null ? JsonValue.EMPTY_JSON_OBJECT : body);
    }

    public JsonObject json() {
        return body;
    }

    /** Whether the field is present and not {@code null}. */
    public boolean has(String name) {
        JsonValue value = body.get(name);
        return value != null && value.getValueType() != JsonValue.ValueType.NULL;
    }

    /** The raw value of a required field of any type. */
    public JsonValue required(String name) {
        if (!has(name)) {
            throw missing(name);
        }
        return body.get(name);
    }

    public String string(String name) {
        return has(name) ? requiredString(name) : null;
    }

    public String requiredString(String name) {
        if (required(name) instanceof JsonString text) {
            return text.getString();
        }
        throw wrongType(name, "a string");
    }

    public Boolean bool(String name) {
        return has(name) ? requiredBool(name) : null;
    }

    public boolean requiredBool(String name) {
        return switch (required(name).getValueType()) {
            case TRUE -> true;
            case FALSE -> false;
            default -> throw wrongType(name, "true or false");
        };
    }

    /** A whole number that fits a long; {@code null} when absent. */
    public Long integer(String name) {
        if (!has(name)) {
            return null;
        }
        if (body.get(name) instanceof JsonNumber number && number.isIntegral()) {
            try {
                return number.bigIntegerValueExact().longValueExact();
            } catch (ArithmeticException e) {
                throw wrongType(name, "a whole number");
            }
        }
        throw wrongType(name, "a whole number");
    }

    /** Any number; {@code null} when absent. */
    public JsonNumber number(String name) {
        if (!has(name)) {
            return null;
        }
        if (body.get(name) instanceof JsonNumber number) {
            return number;
        }
        throw wrongType(name, "a number");
    }

    public JsonObject object(String name) {
        return has(name) ? requiredObject(name) : null;
    }

    public JsonObject requiredObject(String name) {
        if (required(name) instanceof JsonObject object) {
            return object;
        }
        throw wrongType(name, "an object");
    }

    public JsonArray array(String name) {
        return has(name) ? requiredArray(name) : null;
    }

    public JsonArray requiredArray(String name) {
        if (required(name) instanceof JsonArray array) {
            return array;
        }
        throw wrongType(name, "an array");
    }

    /** An array of strings; {@code null} when absent. */
    public List<String> strings(String name) {
        JsonArray array = array(name);
        if (array == null) {
            return null;
        }
        for (JsonValue item : array) {
            if (!(item instanceof JsonString)) {
                throw wrongType(name, "an array of strings");
            }
        }
        return array.getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    /** The answer for a required field that is absent or null. */
    public static ApiException missing(String name) {
        return ApiException.badRequest("missing_field", "'" + name + "' is required");
    }

    /** The answer for a field of the wrong JSON type; {@code expected} reads "a string", "an array of ids", ... */
    public ApiException wrongType(String name, String expected) {
        return wrongType(name, expected, body.get(name));
    }

    public static ApiException wrongType(String name, String expected, JsonValue got) {
        return ApiException.badRequest("invalid_type", "'" + name + "' must be " + expected + ", got " + describe(got));
    }

    private static String describe(JsonValue value) {
        if (value == null) {
            return "nothing";
        }
        return switch (value.getValueType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case TRUE, FALSE -> "a boolean";
            case NULL -> "null";
        };
    }
}
