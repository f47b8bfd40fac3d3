package dev.switchboard.backend.access;

import org.eclipse.microprofile.config.Config;

import java.time.Duration;
import java.util.Optional;

/**
 * How one backend is protected. Each value is {@code switchboard.resilience.backend.<gateway name>.<key>} when set,
 * else {@code switchboard.resilience.<key>}, else the default here.
 *
 * @param breakerWindow       how many recent calls the breaker judges ({@code breaker.window})
 * @param breakerMinCalls     calls needed in the window before it may open ({@code breaker.min-calls})
 * @param breakerFailureRate  percentage of failed calls in the window that opens it ({@code breaker.failure-rate})
 * @param breakerOpenDuration how long an open breaker refuses calls before one probe may pass ({@code breaker.open-duration})
 * @param maxConcurrentCalls  calls to the backend in flight at once ({@code bulkhead.max-concurrent})
 * @param maxWait             how long a call waits for a free slot before it is refused ({@code bulkhead.max-wait})
 */
public record ResilienceSettings(int breakerWindow, int breakerMinCalls, int breakerFailureRate,
                                 Duration breakerOpenDuration, int maxConcurrentCalls, Duration maxWait) {

    static final String PREFIX = "switchboard.resilience.";

    public ResilienceSettings {
        if (breakerWindow < 1 || breakerMinCalls < 1 || maxConcurrentCalls < 1) {
            throw new IllegalArgumentException("breaker window, breaker min-calls and bulkhead max-concurrent must be at least 1");
        }
        if (breakerFailureRate < 1 || breakerFailureRate > 100) {
            throw new IllegalArgumentException("breaker failure-rate is a percentage from 1 to 100, not " + breakerFailureRate);
        }
        if (breakerOpenDuration.isNegative() || breakerOpenDuration.isZero() || maxWait.isNegative()) {
            throw new IllegalArgumentException("breaker open-duration must be positive and bulkhead max-wait not negative");
        }
    }

    public static ResilienceSettings defaults() {
        return new ResilienceSettings(10, 5, 50, Duration.ofSeconds(30), 32, Duration.ofMillis(500));
    }

    /** The settings of the backend with this gateway name. */
    public static ResilienceSettings of(Config config, String backendName) {
        ResilienceSettings d = defaults();
        Lookup lookup = new Lookup(config, backendName);
        return new ResilienceSettings(
                lookup.value("breaker.window", Integer.class).orElse(d.breakerWindow()),
                lookup.value("breaker.min-calls", Integer.class).orElse(d.breakerMinCalls()),
                lookup.value("breaker.failure-rate", Integer.class).orElse(d.breakerFailureRate()),
                lookup.value("breaker.open-duration", Duration.class).orElse(d.breakerOpenDuration()),
                lookup.value("bulkhead.max-concurrent", Integer.class).orElse(d.maxConcurrentCalls()),
                lookup.value("bulkhead.max-wait", Duration.class).orElse(d.maxWait()));
    }

    private record Lookup(Config config, String backendName) {

        <T> Optional<T> value(String key, Class<T> type) {
            Optional<T> own = config.getOptionalValue(PREFIX + "backend." + backendName + "." + key, type);
            return own.isPresent() ? own : config.getOptionalValue(PREFIX + key, type);
        }
    }
}
