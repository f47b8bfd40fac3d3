package dev.switchboard.sql.nl;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL in a model's answer: a fenced block ({@code ```sql ... ```}) when there is one, else the text from the
 * first line that starts a query, else nothing. What it returns is only a candidate: the guard decides whether it
 * may run.
 */
public final class SqlExtractor {

    private static final Pattern FENCE = Pattern.compile("```[a-zA-Z]*\\s*\\n?(.*?)```", Pattern.DOTALL);

    private SqlExtractor() {
    }

    public static Optional<String> extract(String answer) {
        if (answer == null || answer.isBlank()) {
            return Optional.empty();
        }
        Matcher fenced = FENCE.matcher(answer);
        if (fenced.find()) {
            return nonBlank(fenced.group(1));
        }
        String[] lines = answer.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String head = lines[i].stripLeading().toUpperCase(Locale.ROOT);
            if (head.startsWith("SELECT") || head.startsWith("WITH") || head.startsWith("(")) {
                return nonBlank(String.join("\n", Arrays.copyOfRange(lines, i, lines.length)));
            }
        }
        // prose without a query (a refusal, an apology) is no SQL; a fenced block of anything goes to the guard
        return Optional.empty();
    }

    private static Optional<String> nonBlank(String sql) {
        String trimmed = sql.strip();
        while (trimmed.endsWith(";")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1).strip();
        }
        return trimmed.isEmpty() ? Optional.empty() : Optional.of(trimmed);
    }
}
