package dev.switchboard.policy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;

/**
 * The policy room's settings and the shared objects the gateway's policy layer uses: in memory here; in cluster mode
 * the {@code cluster} room's alternatives replace the rate limiter and the idempotent results.
 */
@ApplicationScoped
public class PolicyConfiguration {

    @Inject
    @ConfigProperty(name = "switchboard.gateway.retry.max-attempts", defaultValue = "3")
    int retryMaxAttempts;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.retry.initial-backoff", defaultValue = "PT0.2S")
    Duration retryInitialBackoff;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.retry.max-backoff", defaultValue = "PT2S")
    Duration retryMaxBackoff;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.idempotency.window", defaultValue = "PT10M")
    Duration idempotencyWindow;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.idempotency.capacity", defaultValue = "10000")
    int idempotencyCapacity;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.idempotency.wait", defaultValue = "PT60S")
    Duration idempotencyWait;

    public RetrySettings retries() {
        return new RetrySettings(retryMaxAttempts, retryInitialBackoff, retryMaxBackoff);
    }

    /** How long a completed result is answered again. */
    public Duration idempotencyWindow() {
        return idempotencyWindow;
    }

    /** Keys kept (per member in cluster mode). */
    public int idempotencyCapacity() {
        return idempotencyCapacity;
    }

    /** How long a call waits for the first call with its key; in cluster mode also how long a claim outlives its member. */
    public Duration idempotencyWait() {
        return idempotencyWait;
    }

    @Produces
    @Singleton
    RateLimiter rateLimiter() {
        return new LocalRateLimiter();
    }

    @Produces
    @Singleton
    IdempotentResults idempotentResults() {
        return new LocalIdempotentResults(idempotencyWindow, idempotencyCapacity, idempotencyWait, System::nanoTime);
    }
}
