package dev.switchboard.llm;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;

import java.time.temporal.ChronoUnit;

/**
 * Every call to an LLM provider passes here, through MicroProfile Fault Tolerance's circuit breaker: when the last
 * {@value #FAILURES} calls all failed for the provider's health (down, too slow, 5xx), calls fail at once for
 * {@value #OPEN_SECONDS} s, then one trial call decides whether the providers are back. Refusals (4xx) and malformed
 * answers say nothing about a provider's health: they leave this method as {@link ProviderAnswered}, which the
 * breaker does not count as a failure.
 * <p>
 * The breaker's state belongs to this method, so it is shared by every provider (the default one and those of
 * {@code llm.providers}); Fault Tolerance keeps no state per object. Its settings are Fault Tolerance's own keys,
 * e.g. {@code dev.switchboard.llm.ProviderCalls/call/CircuitBreaker/delay}.
 * <p>
 * No {@code @Timeout} here: a blocking answer is bounded by {@code llm.read-timeout} in the client, and a stream may
 * rightly last longer than any fixed deadline; the client closes it when the provider stays silent for the read
 * timeout, which a deadline for the whole call could not express.
 */
@ApplicationScoped
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
