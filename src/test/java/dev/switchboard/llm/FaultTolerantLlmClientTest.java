package dev.switchboard.llm;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The client side of the providers' breaker, without the interceptor (FaultToleranceInServerIT shows the breaker
 * itself acting): which failures leave {@link ProviderCalls} as breaker failures, and what callers see.
 */
class FaultTolerantLlmClientTest {

    private static final JsonObject REQUEST = JsonValue.EMPTY_JSON_OBJECT;

    private static LlmClient failing(LlmException.Kind kind) {
        return new LlmClient() {
            @Override
            public String defaultModel() {
                return "m";
            }

            @Override
            public LlmReply complete(JsonObject request) throws LlmException {
                throw new LlmException(kind, "provider said " + kind, 400, null);
            }

            @Override
            public LlmReply stream(JsonObject request, StreamListener listener) throws LlmException {
                return complete(request);
            }
        };
    }

    @Test
    void refusalsAndMalformedAnswersPassTheBreakerAsNoFailureAndReachTheCallerUnchanged() {
        for (LlmException.Kind kind : List.of(LlmException.Kind.REJECTED, LlmException.Kind.MALFORMED)) {
            assertThrows(ProviderCalls.ProviderAnswered.class, () -> new ProviderCalls().call(failing(kind), p -> p.complete(REQUEST)));
            LlmException seen = assertThrows(LlmException.class,
                    () -> new FaultTolerantLlmClient(failing(kind), "'p'", new ProviderCalls()).complete(REQUEST));
            assertEquals(kind, seen.kind());
            assertEquals("provider said " + kind, seen.getMessage());
            assertEquals(400, seen.httpStatus());
        }
    }

    @Test
    void healthFailuresLeaveAsThemselvesForTheBreakerToCount() {
        for (LlmException.Kind kind : List.of(LlmException.Kind.UNAVAILABLE, LlmException.Kind.TIMEOUT, LlmException.Kind.FAILED)) {
            LlmException seen = assertThrows(LlmException.class, () -> new ProviderCalls().call(failing(kind), p -> p.stream(REQUEST, d -> { })));
            assertEquals(kind, seen.kind());
        }
    }

    @Test
    void anOpenBreakerIsAnUnavailableProviderThatSaysWhy() {
        CircuitBreakerOpenException open = new CircuitBreakerOpenException("open");
        ProviderCalls refusing = new ProviderCalls() {
            @Override
            public LlmReply call(LlmClient provider, Call call) {
                throw open;
            }
        };
        LlmException seen = assertThrows(LlmException.class,
                () -> new FaultTolerantLlmClient(failing(LlmException.Kind.FAILED), "'default' at http://llm/v1", refusing).complete(REQUEST));
        assertEquals(LlmException.Kind.UNAVAILABLE, seen.kind());
        assertEquals("The LLM provider 'default' at http://llm/v1 is not called: its last calls failed, so "
                + "its calls fail at once until its circuit breaker's delay is over "
                + "(dev.switchboard.llm.ProviderCalls/call/CircuitBreaker/delay, 30 s by default)", seen.getMessage());
        assertSame(open, seen.getCause());
    }
}
