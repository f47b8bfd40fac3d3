package dev.switchboard.llm;

import org.eclipse.microprofile.faulttolerance.CircuitBreaker;

import java.time.temporal.ChronoUnit;

/**
 * Every call to an LLM provider passes here, through MicroProfile Fault Tolerance's circuit breaker: when the last
 * {@value #FAILURES} calls to a provider all failed for its health (down, too slow, 5xx), its calls fail at once for
 * {@value #OPEN_SECONDS} s, then one trial call decides whether it is back. Refusals (4xx) and malformed answers say
 * nothing about a provider's health: they leave this method as {@link ProviderAnswered}, which the breaker does not
 * count as a failure.
 * <p>
 * Not a bean by itself (no scope): {@link ProviderBreakers} adds one application-scoped bean of it per configured
 * provider, qualified {@link LlmProvider}, and each bean has a breaker of its own. Their settings are Fault
 * Tolerance's own keys, one set for every provider's breaker alike, e.g.
 * {@code dev.switchboard.llm.ProviderCalls/call/CircuitBreaker/delay}.
 * <p>
 * No {@code @Timeout} here: a blocking answer is bounded by {@code llm.read-timeout} in the client, and a stream may
 * rightly last longer than any fixed deadline; the client closes it when the provider stays silent for the read
 * timeout, which a deadline for the whole call could not express.
 */
public class ProviderCalls {

    static final int FAILURES = 5;
    static final int OPEN_SECONDS = 30;
    /** The prefix of this breaker's Fault Tolerance configuration keys. */
    static final String BREAKER_KEYS = "dev.switchboard.llm.ProviderCalls/call/CircuitBreaker/";

    /** One provider call: a blocking completion or a stream. */
    @FunctionalInterface
    public interface Call {
        LlmReply on(LlmClient provider) throws LlmException;
    }

    /** Carries a provider's answer that failed the call but not the provider (4xx, malformed): not a breaker failure. */
    static final class ProviderAnswered extends RuntimeException {
        ProviderAnswered(LlmException answer) {
            super(answer.getMessage(), answer, false, false);
        }

        LlmException answer() {
            return (LlmException) getCause();
        }
    }

    @CircuitBreaker(requestVolumeThreshold = FAILURES, failureRatio = 1.0, delay = OPEN_SECONDS, delayUnit = ChronoUnit.SECONDS,
            successThreshold = 1, failOn = LlmException.class)
    public LlmReply call(LlmClient provider, Call call) throws LlmException {
        try {
            return call.on(provider);
        } catch (LlmException e) {
            if (e.kind() == LlmException.Kind.REJECTED || e.kind() == LlmException.Kind.MALFORMED) {
                throw new ProviderAnswered(e);
            }
            throw e;
        }
    }
}
