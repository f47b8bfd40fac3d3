package dev.switchboard.audit;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.math.BigDecimal;
import java.util.TreeMap;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * One text per JSON value, whatever its key order or spacing: keys sorted by code point at every level, no
 * whitespace, strings escaped by JSON-P, numbers in their shortest exact form. Equal inputs hash equal.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    public static String of(JsonValue value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(JsonValue value, StringBuilder out) {
        switch (value.getValueType()) {
            case OBJECT -> {
                out.append('{');
                boolean first = true;
                for (var entry : new TreeMap<>((JsonObject) value).entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    out.append(JSON.createValue(entry.getKey()));
                    out.append(':');
                    write(entry.getValue(), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                JsonArray array = (JsonArray) value;
                for (int i = 0; i < array.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(array.get(i), out);
                }
                out.append(']');
            }
            case NUMBER -> out.append(number((JsonNumber) value));
            case STRING -> out.append(JSON.createValue(((JsonString) value).getString()));
            default -> out.append(value);
        }
    }

    /**
     * Beyond this power of ten either way, a number is written as its digits and an exponent ({@code 1e9000000})
     * rather than in plain notation, which would cost time and memory in proportion to the exponent. Far above what
     * the JSON reader lets in ({@code switchboard.json.max-number-scale}), so every number read from outside keeps the
     * plain form it always had, and hashes made before this bound still match.
     */
    static final int PLAIN_SCALE_LIMIT = 10_000;

    /**
     * 1, 1.0 and 1e0 are one number: integers without a fraction, others in plain decimal without trailing zeros;
     * one beyond {@link #PLAIN_SCALE_LIMIT} as its unscaled digits, {@code e} and the exponent, equally unique.
     */
    static String number(JsonNumber number) {
        BigDecimal decimal = number.bigDecimalValue().stripTrailingZeros();
        if (Math.abs((long) decimal.scale()) > PLAIN_SCALE_LIMIT) {
            return decimal.unscaledValue() + "e" + (-(long) decimal.scale());
        }
        return decimal.scale() <= 0 ? decimal.toBigInteger().toString() : decimal.toPlainString();
    }
}
