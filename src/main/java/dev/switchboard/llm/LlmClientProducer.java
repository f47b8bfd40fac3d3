package dev.switchboard.llm;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.logging.Logger;

/**
 * The configured providers: the default one ({@code LLM_BASE_URL}, {@code LLM_API_KEY}, {@code LLM_MODEL}) and, when
 * {@code llm.providers} names more, a routing client that sends each model to its provider. Each provider's calls
 * pass a circuit breaker of its own.
 */
@ApplicationScoped
public class LlmClientProducer {

    private static final Logger LOG = Logger.getLogger(LlmClientProducer.class.getName());

    /**
     * The HTTP client's I/O runs on threads of its own: on the container's shared executor, request threads waiting
     * for streams and the client's own I/O tasks compete, and a burst of streams stalls for seconds.
     */
    @Resource
    ManagedThreadFactory threadFactory;

    private ExecutorService executor;

    /**
     * Closes streams that stay silent past the read timeout: one timer per stream, set at its start and cancelled at
     * its end. A plain scheduler on one managed thread: the managed scheduler captured the thread context for every
     * timer, 1.6% of the CPU of a streamed completion (bench/README.md, "Chat first byte round 3"), and closing a
     * stream needs no context.
     */
    private ScheduledThreadPoolExecutor deadlines;

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

    /** One per provider, each with its breaker ({@link ProviderBreakers}). */
    @Inject
    @Any
    Instance<ProviderCalls> calls;

    @Inject
    Config config;

    @Produces
    @ApplicationScoped
    LlmClient client() {
        executor = Executors.newCachedThreadPool(threadFactory);
        deadlines = new ScheduledThreadPoolExecutor(1, threadFactory);
        // a cancelled timer of a finished stream would otherwise stay queued for the whole read timeout
        deadlines.setRemoveOnCancelPolicy(true);
        LlmSettings settings = new LlmSettings(URI.create(baseUrl), apiKey.orElse(""), model, connectTimeout, readTimeout);
        LOG.info(() -> "LLM provider: " + settings);
        LlmClient fallback = guarded(LlmProviders.DEFAULT, new OpenAiCompatibleClient(settings, executor, deadlines));
        List<ModelRoute> routes = new ArrayList<>();
        // further providers, each configured by llm.provider.<name>.base-url / api-key / models
        for (String name : LlmProviders.listed(config)) {
            routes.addAll(routesOf(name));
        }
        return routes.isEmpty() ? fallback : new RoutingLlmClient(fallback, routes);
    }

    @PreDestroy
    void stop() {
        if (executor != null) {
            executor.shutdownNow();
        }
        if (deadlines != null) {
            deadlines.shutdownNow();
        }
    }

    /** Each provider's calls go through the Fault Tolerance circuit breaker of its own {@link ProviderCalls} bean. */
    private LlmClient guarded(String name, OpenAiCompatibleClient client) {
        return new FaultTolerantLlmClient(client, "'" + name + "' at " + client.settings().baseUrl(),
                calls.select(LlmProvider.Literal.of(name)).get());
    }

    private List<ModelRoute> routesOf(String name) {
        if (name.equals(LlmProviders.DEFAULT)) {
            throw new IllegalStateException("LLM provider '" + LlmProviders.DEFAULT + "' in " + LlmProviders.LIST_KEY
                    + " is the provider of llm.base-url: give the further provider another name");
        }
        String prefix = "llm.provider." + name + ".";
        String url = config.getOptionalValue(prefix + "base-url", String.class).orElseThrow(() ->
                new IllegalStateException("LLM provider '" + name + "' is listed in llm.providers but has no " + prefix + "base-url"));
        List<String> models = config.getOptionalValues(prefix + "models", String.class).orElseThrow(() ->
                new IllegalStateException("LLM provider '" + name + "' has no " + prefix + "models (names, or prefixes ending in *)"));
        String key = config.getOptionalValue(prefix + "api-key", String.class).orElse("");
        // a routed provider only ever gets requests that name one of its models, so its default model is never used
        LlmSettings settings = new LlmSettings(URI.create(url), key, model, connectTimeout, readTimeout);
        LOG.info(() -> "LLM provider '" + name + "' for models " + models + ": " + settings);
        LlmClient client = guarded(name, new OpenAiCompatibleClient(settings, executor, deadlines));
        return models.stream().map(m -> new ModelRoute(m.strip(), client)).toList();
    }
}
