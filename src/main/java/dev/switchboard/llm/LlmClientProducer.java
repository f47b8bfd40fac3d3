package dev.switchboard.llm;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Logger;

/** The configured provider (environment {@code LLM_BASE_URL}, {@code LLM_API_KEY}, {@code LLM_MODEL}, ...). */
@ApplicationScoped
public class LlmClientProducer {

    private static final Logger LOG = Logger.getLogger(LlmClientProducer.class.getName());

    @Resource
    ManagedExecutorService executor;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "llm.base-url", defaultValue = "http://localhost:11434/v1")
    String baseUrl;

    @Inject
    @ConfigProperty(name = "llm.api-key")
    Optional<String> apiKey;

    @Inject
    @ConfigProperty(name = "llm.model", defaultValue = "llama3.2")
    String model;

    @Inject
    @ConfigProperty(name = "llm.connect-timeout", defaultValue = "PT10S")
    Duration connectTimeout;

    @Inject
    @ConfigProperty(name = "llm.read-timeout", defaultValue = "PT120S")
    Duration readTimeout;

    @Produces
    @ApplicationScoped
    LlmClient client() {
        LlmSettings settings = new LlmSettings(URI.create(baseUrl), apiKey.orElse(""), model, connectTimeout, readTimeout);
        LOG.info(() -> "LLM provider: " + settings);
        return new OpenAiCompatibleClient(settings, executor, scheduler);
    }
}
