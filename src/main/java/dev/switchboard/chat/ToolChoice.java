package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The caller's {@code tool_choice}, honoured even by providers that ignore it: {@code none} offers no tools at
 * all; {@code required} or a named function that the provider answers with text gets one more call that tells
 * it to call the tool. A forcing choice applies to the first call of a run only: forcing every round would loop
 * until the round limit.
 *
 * @param function the named function, for {@link Mode#FUNCTION}
 */
record ToolChoice(Mode mode, String function) {

    enum Mode { AUTO, NONE, REQUIRED, FUNCTION }

    static final ToolChoice AUTO = new ToolChoice(Mode.AUTO, null);

    static ToolChoice of(JsonValue value) {
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return AUTO;
        }
        if (value instanceof JsonString s) {
            return switch (s.getString()) {
                case "auto" -> AUTO;
                case "none" -> new ToolChoice(Mode.NONE, null);
                case "required" -> new ToolChoice(Mode.REQUIRED, null);
                default -> throw invalid();
            };
        }
        if (value instanceof JsonObject o && "function".equals(o.getString("type", ""))
                && o.get("function") instanceof JsonObject f && f.get("name") instanceof JsonString name) {
            return new ToolChoice(Mode.FUNCTION, name.getString());
        }
        throw invalid();
    }

    boolean forcing() {
        return mode == Mode.REQUIRED || mode == Mode.FUNCTION;
    }

    JsonValue json() {
        return switch (mode) {
            case AUTO -> JSON.createValue("auto");
            case NONE -> JSON.createValue("none");
            case REQUIRED -> JSON.createValue("required");
            case FUNCTION -> JSON.createObjectBuilder().add("type", "function")
                    .add("function", JSON.createObjectBuilder().add("name", function)).build();
        };
    }

    /** What the extra call tells a provider that answered with text although a tool call was required. */
    String nudge() {
        return mode == Mode.FUNCTION ? "Answer this turn by calling the function '" + function + "', not with text."
                : "Answer this turn by calling one of the tools, not with text.";
    }

    private static ApiException invalid() {
        return ApiException.badRequest("invalid_tool_choice",
                "'tool_choice' must be \"auto\", \"none\", \"required\" or {\"type\":\"function\",\"function\":{\"name\":...}}");
    }
}
