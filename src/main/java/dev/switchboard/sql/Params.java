package dev.switchboard.sql;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reading a request's {@code params}: a missing or mistyped value is the query dialect's -32602 naming the parameter. */
public final class Params {

    private Params() {
    }

    public static String requiredString(JsonObject params, String name) {
        String value = optionalString(params, name, null);
        if (value == null || value.isBlank()) {
            throw invalid(name, "缺少参数 " + name);
        }
        return value;
    }

    public static String optionalString(JsonObject params, String name, String fallback) {
        JsonValue value = params.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return fallback;
        }
        if (value instanceof JsonString s) {
            return s.getString();
        }
        throw invalid(name, "参数 " + name + " 须为字符串");
    }

    public static int optionalInt(JsonObject params, String name, int fallback) {
        JsonValue value = params.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return fallback;
        }
        if (value instanceof JsonNumber n && n.isIntegral()) {
            try {
                return n.intValueExact();
            } catch (ArithmeticException e) {
                throw invalid(name, "参数 " + name + " 超出范围");
            }
        }
        throw invalid(name, "参数 " + name + " 须为整数");
    }

    public static boolean optionalBoolean(JsonObject params, String name, boolean fallback) {
        JsonValue value = params.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return fallback;
        }
        if (value == JsonValue.TRUE || value == JsonValue.FALSE) {
            return value == JsonValue.TRUE;
        }
        throw invalid(name, "参数 " + name + " 须为布尔值");
    }

    public static JsonObject optionalObject(JsonObject params, String name) {
        JsonValue value = params.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        if (value instanceof JsonObject o) {
            return o;
        }
        throw invalid(name, "参数 " + name + " 须为对象");
    }

    public static QueryException invalid(String name, String message) {
        return new QueryException(QueryErrorCode.INVALID_PARAMS, message, Map.of("param", name));
    }

    /** Ordered error data from key/value pairs. */
    public static Map<String, Object> data(Object... pairs) {
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            data.put((String) pairs[i], pairs[i + 1]);
        }
        return data;
    }
}
