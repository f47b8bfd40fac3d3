package dev.switchboard.knowledge;

import dev.switchboard.platform.ApiException;

/**
 * The query parameters of {@code GET /api/knowledge/search}, checked. Numbers arrive as text so that a bad one is a
 * 400 in the API's error shape (JAX-RS would answer an unparseable query parameter with an empty 404).
 *
 * @param question the {@code q} parameter
 * @param limit    most hits returned
 * @param minScore lowest normalised score returned
 */
record SearchParameters(String question, int limit, double minScore) {

    /** Questions are typed by people; a 10 KB one is a mistake or an attack on the analyzer. */
    static final int MAX_QUESTION_CHARS = 1000;
    static final int MAX_LIMIT = 50;

    static SearchParameters parse(String q, String limit, String minScore) {
        if (q == null || q.isBlank()) {
            throw ApiException.badRequest("missing_field", "query parameter 'q' (the question) is required");
        }
        if (q.length() > MAX_QUESTION_CHARS) {
            throw ApiException.badRequest("too_long", "'q' is longer than " + MAX_QUESTION_CHARS + " characters");
        }
        int max = limit == null ? KnowledgeRetriever.DEFAULT_LIMIT : parseLimit(limit);
        double min = minScore == null ? KnowledgeRetriever.DEFAULT_MIN_SCORE : parseMinScore(minScore);
        return new SearchParameters(q, max, min);
    }

    private static int parseLimit(String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 1 && value <= MAX_LIMIT) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below, like an out-of-range value
        }
        throw ApiException.badRequest("invalid_field", "'limit' must be a whole number from 1 to " + MAX_LIMIT);
    }

    private static double parseMinScore(String text) {
        try {
            double value = Double.parseDouble(text.trim());
            if (value >= 0 && value <= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below, like an out-of-range value
        }
        throw ApiException.badRequest("invalid_field", "'minScore' must be a number from 0 to 1");
    }
}
