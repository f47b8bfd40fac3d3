package dev.switchboard.llm;

/**
 * Sends the models a pattern matches to one provider.
 *
 * @param pattern a model name, or a prefix ending in {@code *} ({@code doubao-*})
 */
public record ModelRoute(String pattern, LlmClient client) {

    public boolean matches(String model) {
        return pattern.endsWith("*") ? model.startsWith(pattern.substring(0, pattern.length() - 1)) : model.equals(pattern);
    }
}
