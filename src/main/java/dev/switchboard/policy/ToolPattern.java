package dev.switchboard.policy;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of a tenant's tool allowlist, over the gateway's public names ({@code {backend}__{tool}}, the gateway's tool naming):
 * a whole name ({@code files__read_file}), every tool of a backend ({@code files__*}) or every tool ({@code *}).
 */
public record ToolPattern(String text) {

    private static final Pattern VALID = Pattern.compile("^\\*$|^[A-Za-z0-9_.-]+__(\\*|[A-Za-z0-9_.-]+)$");

    /** Empty when the text is no valid pattern. */
    public static Optional<ToolPattern> parse(String text) {
        return text != null && VALID.matcher(text).matches() ? Optional.of(new ToolPattern(text)) : Optional.empty();
    }

    public boolean matches(String exposedTool) {
        if (exposedTool == null) {
            return false;
        }
        if (text.endsWith("*")) {
            return exposedTool.startsWith(text.substring(0, text.length() - 1));
        }
        return text.equals(exposedTool);
    }

    /** Whole names beat backend wildcards, which beat {@code *}, when rules for one tool overlap. */
    int specificity() {
        return text.equals("*") ? 0 : text.endsWith("*") ? 1 : 2;
    }
}
