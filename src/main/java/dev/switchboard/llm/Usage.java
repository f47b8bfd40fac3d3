package dev.switchboard.llm;

import dev.switchboard.platform.json.WholeNumbers;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.OptionalLong;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Token counts of one or more completions. */
public record Usage(long promptTokens, long completionTokens, long totalTokens) {

    public static final Usage NONE = new Usage(0, 0, 0);

    public Usage plus(Usage other) {
        return new Usage(promptTokens + other.promptTokens, completionTokens + other.completionTokens,
                totalTokens + other.totalTokens);
    }

    /**
     * Reads an OpenAI {@code usage} object from a provider, which is not trusted: a count that is missing or no whole
     * number from 0 to {@link #MAX_COUNT} is zero, a total like that is the sum.
     */
    public static Usage of(JsonObject usage) {
        if (usage == null) {
            return NONE;
        }
        long prompt = count(usage.get("prompt_tokens")).orElse(0);
        long completion = count(usage.get("completion_tokens")).orElse(0);
        long total = count(usage.get("total_tokens")).orElse(prompt + completion);
        return new Usage(prompt, completion, total);
    }

    /** Far beyond any turn, and small enough that adding up a conversation's turns cannot overflow. */
    static final long MAX_COUNT = 1L << 40;

    private static OptionalLong count(JsonValue value) {
        OptionalLong count = WholeNumbers.asLong(value);
        return count.isPresent() && count.getAsLong() >= 0 && count.getAsLong() <= MAX_COUNT ? count : OptionalLong.empty();
    }

    public JsonObject toJson() {
        return JSON.createObjectBuilder().add("prompt_tokens", promptTokens).add("completion_tokens", completionTokens)
                .add("total_tokens", totalTokens).build();
    }
}
