package dev.switchboard.policy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;

/** The policy room's settings and the shared objects the gateway's policy layer uses. */
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

    public RetrySettings retries() {
        return new RetrySettings(retryMaxAttempts, retryInitialBackoff, retryMaxBackoff);
    }

    @Produces
    @Singleton
    RateLimiter rateLimiter() {
        return new LocalRateLimiter();
    }

    @Produces
    @Singleton
    IdempotentResults idempotentResults() {
        return new IdempotentResults(idempotencyWindow, idempotencyCapacity, System::nanoTime);
    }
}
