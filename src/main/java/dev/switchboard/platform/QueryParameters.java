package dev.switchboard.platform;

/** Query parameters of list endpoints, read by one rule: a range, a default when absent, a 400 naming the range otherwise. */
public final class QueryParameters {

    private QueryParameters() {
    }

    /** {@code text} as a whole number in [min, max]; {@code fallback} when absent or blank; 400 {@code invalid_<field>} otherwise. */
    public static int wholeNumber(String text, String field, int fallback, int min, int max) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException ignored) {
            // answered below
        }
        throw ApiException.badRequest("invalid_" + field, field + " must be a whole number from " + min + " to " + max);
    }
}
