package dev.switchboard.platform;

import java.util.Set;

/**
 * The query parameters of the list endpoints, read by one set of rules: each bad value is a 400
 * {@code invalid_<name>} whose message says what the parameter must be. A parameter left out or empty is absent.
 */
public final class QueryParameters {

    private QueryParameters() {
    }

    /** A page size of 1 to {@code max}; {@code fallback} when absent. */
    public static int limit(String value, int fallback, int max) {
        if (absent(value)) {
            return fallback;
        }
        long limit = wholeNumber("limit", value);
        if (limit < 1 || limit > max) {
            throw ApiException.badRequest("invalid_limit", "'limit' must be between 1 and " + max);
        }
        return (int) limit;
    }

    public static long wholeNumber(String name, String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_" + name, "'" + name + "' must be a whole number");
        }
    }

    /** A whole number in [min, max]; {@code fallback} when absent; 400 {@code invalid_<name>} naming the range otherwise. */
    public static int inRange(String name, String value, int fallback, int min, int max) {
        if (absent(value)) {
            return fallback;
        }
        try {
            int number = Integer.parseInt(value.strip());
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException ignored) {
            // answered below
        }
        throw ApiException.badRequest("invalid_" + name, name + " must be a whole number from " + min + " to " + max);
    }

    /** One of the allowed words; null when absent. */
    public static String oneOf(String name, String value, Set<String> allowed) {
        if (absent(value)) {
            return null;
        }
        if (!allowed.contains(value)) {
            throw ApiException.badRequest("invalid_" + name, "'" + name + "' must be one of " + allowed.stream().sorted().toList());
        }
        return value;
    }

    /** Text of at most {@code maxLength} characters, stripped; null when absent. */
    public static String text(String name, String value, int maxLength) {
        if (absent(value)) {
            return null;
        }
        if (value.length() > maxLength) {
            throw ApiException.badRequest("invalid_" + name, "'" + name + "' must be at most " + maxLength + " characters");
        }
        return value.strip();
    }

    public static boolean absent(String value) {
        return value == null || value.isBlank();
    }
}
