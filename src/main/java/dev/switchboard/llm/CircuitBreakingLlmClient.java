package dev.switchboard.llm;

import jakarta.json.JsonObject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Stops calling a provider that keeps failing: after {@code threshold} failures in a row (down, too slow, 5xx) calls
 * fail at once for {@code openFor}; then one trial call decides whether it is back. Refusals (4xx) and malformed
 * answers say nothing about the provider's health and do not count.
 */
public final class CircuitBreakingLlmClient implements LlmClient {

    private final LlmClient delegate;
    private final String name;
    private final int threshold;
    private final Duration openFor;
    private final Clock clock;

    // guarded by this
    private int failuresInARow;
    private Instant openUntil;
    private boolean trialRunning;

    public CircuitBreakingLlmClient(LlmClient delegate, String name, int threshold, Duration openFor, Clock clock) {
        this.delegate = delegate;
        this.name = name;
        this.threshold = threshold;
        this.openFor = openFor;
        this.clock = clock;
    }

    @Override
    public String defaultModel() {
        return delegate.defaultModel();
    }

    @Override
    public LlmReply complete(JsonObject request) throws LlmException {
        boolean trial = admit();
        try {
            return succeeded(delegate.complete(request));
        } catch (LlmException e) {
            throw failed(e, trial);
        }
    }

    @Override
    public LlmReply stream(JsonObject request, StreamListener listener) throws LlmException {
        boolean trial = admit();
        try {
            return succeeded(delegate.stream(request, listener));
        } catch (LlmException e) {
            throw failed(e, trial);
        }
    }

    /** Lets a call through, or refuses it while open; returns whether it is the one trial call after opening. */
    private synchronized boolean admit() throws LlmException {
        if (openUntil == null) {
            return false;
        }
        if (clock.instant().isBefore(openUntil) || trialRunning) {
            throw new LlmException(LlmException.Kind.UNAVAILABLE, "The LLM provider " + name + " failed " + failuresInARow
                    + " times in a row; not calling it again before " + openUntil + " (llm.circuit.open-duration)");
        }
        trialRunning = true;
        return true;
    }

    private synchronized LlmReply succeeded(LlmReply reply) {
        failuresInARow = 0;
        openUntil = null;
        trialRunning = false;
        return reply;
    }

    private synchronized LlmException failed(LlmException e, boolean trial) {
        if (trial) {
            trialRunning = false;
        }
        boolean health = e.kind() == LlmException.Kind.UNAVAILABLE || e.kind() == LlmException.Kind.TIMEOUT
                || e.kind() == LlmException.Kind.FAILED;
        if (!health) {
            if (trial) {
                // the provider answered: it is up
                openUntil = null;
                failuresInARow = 0;
            }
            return e;
        }
        failuresInARow++;
        if (trial || failuresInARow >= threshold) {
            openUntil = clock.instant().plus(openFor);
        }
        return e;
    }
}
