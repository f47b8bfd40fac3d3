package dev.switchboard.llm;

import org.eclipse.microprofile.config.Config;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The names of the configured LLM providers: the default one and those {@code llm.providers} lists. */
final class LlmProviders {

    /** The provider of {@code llm.base-url}, {@code llm.api-key} and {@code llm.model}. */
    static final String DEFAULT = "default";

    static final String LIST_KEY = "llm.providers";

    private LlmProviders() {
    }

    /** The default provider first, then each listed one once, as listed. */
    static Set<String> names(Config config) {
        Set<String> names = new LinkedHashSet<>();
        names.add(DEFAULT);
        names.addAll(listed(config));
        return names;
    }

    /** The names {@code llm.providers} lists, trimmed; the producer refuses {@value #DEFAULT} among them. */
    static List<String> listed(Config config) {
        return config.getOptionalValues(LIST_KEY, String.class).orElse(List.of()).stream().map(String::strip).toList();
    }
}
