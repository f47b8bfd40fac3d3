package dev.switchboard.llm;

import java.net.URI;
import java.time.Duration;

/**
 * Where the provider is and how long to wait for it.
 *
 * @param baseUrl        the OpenAI-compatible API root, e.g. {@code http://localhost:11434/v1}
 * @param apiKey         bearer key, or blank for providers that need none; never logged
 * @param readTimeout    longest wait for a blocking answer, and for the next chunk of a stream
 */
public record LlmSettings(URI baseUrl, String apiKey, String defaultModel, Duration connectTimeout, Duration readTimeout) {

    public URI completionsUri() {
        String base = baseUrl.toString();
        return URI.create((base.endsWith("/") ? base : base + "/") + "chat/completions");
    }

    public boolean hasApiKey() {
        return apiKey != null && !apiKey.isBlank();
    }

    /** Without the key. */
    @Override
    public String toString() {
        return "LlmSettings[baseUrl=" + baseUrl + ", apiKey=" + (hasApiKey() ? "set" : "none") + ", defaultModel="
                + defaultModel + ", connectTimeout=" + connectTimeout + ", readTimeout=" + readTimeout + "]";
    }
}
