package dev.switchboard.policy;

import java.time.Duration;

/**
 * How a retryable {@code tools/call} is retried: at most {@code maxAttempts} attempts in all, waiting
 * {@code initialBackoff}, then twice as long each time, never more than {@code maxBackoff}. Attempts run on the
 * request's own worker thread, so retries never queue.
 */
public record RetrySettings(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {

    public RetrySettings {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("switchboard.gateway.retry.max-attempts must be at least 1");
        }
    }

    public Duration backoffBefore(int attempt) {
        long factor = 1L << Math.min(20, Math.max(0, attempt - 2));
        Duration wait = initialBackoff.multipliedBy(factor);
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }
}
