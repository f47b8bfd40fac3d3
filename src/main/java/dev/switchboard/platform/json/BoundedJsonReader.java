package dev.switchboard.platform.json;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonLocation;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParsingException;

import java.math.BigDecimal;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * Builds one JSON value from a parser's events, checking {@link JsonLimits} as it goes, so a document that breaks a
 * limit is refused at the token that breaks it, before the rest is read or anything downstream expands it. Also
 * refused, as I-JSON (RFC 7493) asks: duplicate keys (two readers of one document could otherwise see different
 * values) and strings holding half of a surrogate pair (they cannot be stored or sent on as UTF-8). Every refusal is
 * a {@link JsonParsingException} whose message says what was wrong and where; Parsson's own refusals that are not
 * (a depth or number-length overrun, an exponent beyond an int) are turned into one.
 */
final class BoundedJsonReader implements JsonReader {

    private final JsonParser parser;
    private final JsonProvider values;
    private final JsonLimits limits;
    private boolean done;

    BoundedJsonReader(JsonParser parser, JsonProvider values, JsonLimits limits) {
        this.parser = parser;
        this.values = values;
        this.limits = limits;
    }

    @Override
    public JsonStructure read() {
        return expect(JsonStructure.class, "a JSON object or array");
    }

    @Override
    public JsonObject readObject() {
        return expect(JsonObject.class, "a JSON object");
    }

    @Override
    public JsonArray readArray() {
        return expect(JsonArray.class, "a JSON array");
    }

    /** The value, when of the type the caller asked for; the message says what it was instead. */
    private <T extends JsonValue> T expect(Class<T> type, String what) {
        JsonValue value = readValue();
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        throw new JsonParsingException("Expected " + what + ", got " + typeName(value), null);
    }

    @Override
    public JsonValue readValue() {
        if (done) {
            throw new IllegalStateException("This reader has already read its value");
        }
        done = true;
        try {
            JsonValue value = value(first());
            if (moreText()) {
                throw refuse("Unexpected text after the JSON value");
            }
            return value;
        } catch (JsonParsingException e) {
            throw e;
        } catch (JsonException e) {
            throw e.getCause() instanceof CharacterCodingException
                    ? refuse("The JSON text is not valid UTF-8") : new JsonParsingException(e.getMessage(), e, location());
        } catch (RuntimeException e) {
            // Parsson refuses some limits with plain runtime exceptions (depth, number length, exponent overflow)
            throw new JsonParsingException(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(),
                    e, location());
        }
    }

    @Override
    public void close() {
        parser.close();
    }

    /**
     * Builds the value that starts with this event without recursion (a thread's stack is no limit to rely on), one
     * open array or object per entry of {@code open}.
     */
    private JsonValue value(JsonParser.Event first) {
        Deque<Open> open = new ArrayDeque<>();
        JsonParser.Event event = first;
        while (true) {
            JsonValue complete;
            switch (event) {
                case START_OBJECT, START_ARRAY -> {
                    if (open.size() == limits.maxDepth()) {
                        throw refuse("The JSON text is nested deeper than " + limits.maxDepth() + " levels");
                    }
                    open.push(event == JsonParser.Event.START_OBJECT ? new Open(values.createObjectBuilder(), null)
                            : new Open(null, values.createArrayBuilder()));
                    event = next();
                    continue;
                }
                case KEY_NAME -> {
                    key(open.peek(), parser.getString());
                    event = next();
                    continue;
                }
                case END_OBJECT -> complete = open.pop().object.build();
                case END_ARRAY -> complete = open.pop().array.build();
                case VALUE_STRING -> complete = string();
                case VALUE_NUMBER -> complete = number();
                case VALUE_TRUE -> complete = JsonValue.TRUE;
                case VALUE_FALSE -> complete = JsonValue.FALSE;
                case VALUE_NULL -> complete = JsonValue.NULL;
                default -> throw refuse("Unexpected " + event);
            }
            if (open.isEmpty()) {
                return complete;
            }
            open.peek().add(complete);
            event = next();
        }
    }

    private void key(Open object, String key) {
        checkText(key, limits.maxKeyLength(), "An object key");
        if (!object.keys.add(key)) {
            throw refuse("Duplicate key \"" + excerpt(key) + "\"");
        }
        if (object.keys.size() > limits.maxKeys()) {
            throw refuse("An object has more than " + limits.maxKeys() + " keys");
        }
        object.key = key;
    }

    /** An array or object being read: its builder and, for an object, its keys so far and the one awaiting a value. */
    private static final class Open {
        final JsonObjectBuilder object;
        final JsonArrayBuilder array;
        final Set<String> keys;
        String key;

        Open(JsonObjectBuilder object, JsonArrayBuilder array) {
            this.object = object;
            this.array = array;
            this.keys = object == null ? null : new HashSet<>();
        }

        void add(JsonValue value) {
            if (object != null) {
                object.add(key, value);
            } else {
                array.add(value);
            }
        }
    }

    /** The value from the text already checked: asking the parser for its value would copy a long string twice. */
    private JsonValue string() {
        String text = parser.getString();
        checkText(text, limits.maxStringLength(), "A string");
        return values.createValue(text);
    }

    /**
     * The number's text is checked before Parsson builds it; its scale only when it has an exponent (without one,
     * the scale is at most its length).
     */
    private JsonValue number() {
        String text = parser.getString();
        if (text.length() > limits.maxNumberLength()) {
            throw refuse("A number of " + text.length() + " characters is longer than the limit of "
                    + limits.maxNumberLength());
        }
        if (text.indexOf('e') >= 0 || text.indexOf('E') >= 0) {
            BigDecimal decimal;
            try {
                decimal = parser.getBigDecimal();
            } catch (NumberFormatException e) {
                throw refuse("The number " + excerpt(text) + " is out of range");
            }
            if (Math.abs((long) decimal.scale()) > limits.maxNumberScale()) {
                throw refuse("The number " + excerpt(text) + " is out of range: its exponent is beyond ±"
                        + limits.maxNumberScale());
            }
        }
        return parser.getValue();
    }

    /** Parsson reports text after the value as an error of its own when asked whether there is more. */
    private boolean moreText() {
        try {
            return parser.hasNext();
        } catch (JsonParsingException e) {
            return true;
        }
    }

    /** The first event; a text that ends before it is empty (or only whitespace). */
    private JsonParser.Event first() {
        return next("The JSON text is empty");
    }

    private JsonParser.Event next() {
        return next("The JSON text ends before its value is complete");
    }

    private JsonParser.Event next(String whenTextEnds) {
        try {
            if (parser.hasNext()) {
                return parser.next();
            }
        } catch (JsonParsingException e) {
            if (!endsHere(e)) {
                throw e;
            }
        }
        throw refuse(whenTextEnds);
    }

    /** Parsson's words for a text that stops short. */
    private static boolean endsHere(JsonParsingException e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("char -1") || message.contains("token=EOF");
    }

    private void checkText(String text, int maxLength, String what) {
        if (text.length() > maxLength) {
            throw refuse(what + " of " + text.length() + " characters is longer than the limit of " + maxLength);
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw refuse(what + " holds an unpaired surrogate \\u" + Integer.toHexString(c)
                        + " at character " + i);
            }
        }
    }

    private JsonParsingException refuse(String message) {
        return new JsonParsingException(message + at(location()), location());
    }

    private JsonLocation location() {
        return parser.getLocation();
    }

    private static String at(JsonLocation location) {
        return location == null || location.getLineNumber() < 0 ? ""
                : " (line " + location.getLineNumber() + ", column " + location.getColumnNumber() + ")";
    }

    private static String typeName(JsonValue value) {
        return switch (value.getValueType()) {
            case TRUE, FALSE -> "a boolean";
            case NULL -> "null";
            case NUMBER -> "a number";
            case STRING -> "a string";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
        };
    }

    private static String excerpt(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
