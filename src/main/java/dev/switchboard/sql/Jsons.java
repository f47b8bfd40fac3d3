package dev.switchboard.sql;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Java values (query cells, error data) as JSON: numbers stay numbers, dates become ISO text, bytes base64. */
public final class Jsons {

    private Jsons() {
    }

    public static JsonValue of(Object value) {
        if (value == null) {
            return JsonValue.NULL;
        }
        if (value instanceof JsonValue json) {
            return json;
        }
        if (value instanceof Boolean b) {
            return b ? JsonValue.TRUE : JsonValue.FALSE;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return JSON.createValue(((Number) value).longValue());
        }
        if (value instanceof BigInteger big) {
            return JSON.createValue(big);
        }
        if (value instanceof BigDecimal dec) {
            return JSON.createValue(dec);
        }
        if (value instanceof Number n) {
            return JSON.createValue(n.doubleValue());
        }
        if (value instanceof byte[] bytes) {
            return JSON.createValue(Base64.getEncoder().encodeToString(bytes));
        }
        if (value instanceof Map<?, ?> map) {
            JsonObjectBuilder object = JSON.createObjectBuilder();
            map.forEach((k, v) -> object.add(String.valueOf(k), of(v)));
            return object.build();
        }
        if (value instanceof Collection<?> list) {
            JsonArrayBuilder array = JSON.createArrayBuilder();
            list.forEach(v -> array.add(of(v)));
            return array.build();
        }
        return JSON.createValue(value.toString());
    }
}
