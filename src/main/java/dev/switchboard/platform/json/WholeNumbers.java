package dev.switchboard.platform.json;

import jakarta.json.JsonNumber;
import jakarta.json.JsonValue;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Whole numbers from untrusted JSON, or nothing: {@code intValue()} and {@code longValue()} keep a number's low bits,
 * so {@code 4294967301} would pass an int check as 5 and {@code 18446744073709551617} a long check as 1. A fraction,
 * a number beyond the range or a value that is no number gives nothing, and the caller answers its own error.
 */
public final class WholeNumbers {

    private WholeNumbers() {
    }

    public static OptionalLong asLong(JsonValue value) {
        if (value instanceof JsonNumber n && n.isIntegral()) {
            try {
                return OptionalLong.of(n.longValueExact());
            } catch (ArithmeticException e) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.empty();
    }

    public static OptionalInt asInt(JsonValue value) {
        OptionalLong whole = asLong(value);
        return whole.isPresent() && whole.getAsLong() == (int) whole.getAsLong() ? OptionalInt.of((int) whole.getAsLong())
                : OptionalInt.empty();
    }
}
