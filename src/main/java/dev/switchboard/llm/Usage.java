package dev.switchboard.llm;

import jakarta.json.JsonObject;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Token counts of one or more completions. */
public record Usage(long promptTokens, long completionTokens, long totalTokens) {

    public static final Usage NONE = new Usage(0, 0, 0);

    public Usage plus(Usage other) {
        return new Usage(promptTokens + other.promptTokens, completionTokens + other.completionTokens,
                totalTokens + other.totalTokens);
    }

    /** Reads an OpenAI {@code usage} object; missing counts are zero, a missing total is the sum. */
    public static Usage of(JsonObject usage) {
        if (usage == null) {
            return NONE;
        }
        long prompt = usage.containsKey("prompt_tokens") ? usage.getJsonNumber("prompt_tokens").longValue() : 0;
        long completion = usage.containsKey("completion_tokens") ? usage.getJsonNumber("completion_tokens").longValue() : 0;
        long total = usage.containsKey("total_tokens") ? usage.getJsonNumber("total_tokens").longValue() : prompt + completion;
        return new Usage(prompt, completion, total);
    }

    public JsonObject toJson() {
        return JSON.createObjectBuilder().add("prompt_tokens", promptTokens).add("completion_tokens", completionTokens)
                .add("total_tokens", totalTokens).build();
    }
}
