package dev.switchboard.llm;

import dev.switchboard.testing.MutableClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Opening after failures in a row, failing fast while open, one trial call after. */
class CircuitBreakingLlmClientTest {

    /** Answers or fails as told, and counts the calls that reached it. */
    static final class Scripted implements LlmClient {
        final Deque<LlmException.Kind> outcomes = new ArrayDeque<>();
        int calls;

        @Override
        public String defaultModel() {
            return "m";
        }

        @Override
        public LlmReply complete(JsonObject request) throws LlmException {
            calls++;
            LlmException.Kind kind = outcomes.poll();
            if (kind != null) {
                throw new LlmException(kind, "scripted " + kind);
            }
            return new LlmReply("m", "ok", List.of(), "stop", Usage.NONE);
        }

        @Override
        public LlmReply stream(JsonObject request, StreamListener listener) throws LlmException {
            return complete(request);
        }
    }

    @Test
    void opensAfterFailuresInARowAndClosesAfterASuccessfulTrial() throws LlmException {
        Scripted provider = new Scripted();
        MutableClock clock = new MutableClock(java.time.Instant.parse("2026-01-01T00:00:00Z"));
        CircuitBreakingLlmClient breaker = new CircuitBreakingLlmClient(provider, "test", 3, Duration.ofSeconds(30), clock);
        provider.outcomes.addAll(List.of(LlmException.Kind.UNAVAILABLE, LlmException.Kind.TIMEOUT, LlmException.Kind.FAILED));
        for (int i = 0; i < 3; i++) {
            assertThrows(LlmException.class, () -> breaker.complete(JsonValue.EMPTY_JSON_OBJECT));
        }
        LlmException open = assertThrows(LlmException.class, () -> breaker.stream(JsonValue.EMPTY_JSON_OBJECT, d -> { }));
        assertEquals(LlmException.Kind.UNAVAILABLE, open.kind());
        assertTrue(open.getMessage().contains("3 times in a row"), open.getMessage());
        assertEquals(3, provider.calls, "refused without calling");

        clock.advance(Duration.ofSeconds(31));
        provider.outcomes.add(LlmException.Kind.UNAVAILABLE);
        assertThrows(LlmException.class, () -> breaker.complete(JsonValue.EMPTY_JSON_OBJECT));
        assertEquals(4, provider.calls, "one trial call");
        assertThrows(LlmException.class, () -> breaker.complete(JsonValue.EMPTY_JSON_OBJECT));
        assertEquals(4, provider.calls, "a failed trial opens it again at once");

        clock.advance(Duration.ofSeconds(31));
        assertEquals("ok", breaker.complete(JsonValue.EMPTY_JSON_OBJECT).content());
        assertEquals("ok", breaker.complete(JsonValue.EMPTY_JSON_OBJECT).content());
        assertEquals(6, provider.calls);
    }

    @Test
    void refusalsAndMalformedAnswersDoNotCount() throws LlmException {
        Scripted provider = new Scripted();
        CircuitBreakingLlmClient breaker = new CircuitBreakingLlmClient(provider, "test", 2, Duration.ofSeconds(30), new MutableClock(java.time.Instant.parse("2026-01-01T00:00:00Z")));
        provider.outcomes.addAll(List.of(LlmException.Kind.REJECTED, LlmException.Kind.MALFORMED, LlmException.Kind.REJECTED,
                LlmException.Kind.UNAVAILABLE));
        for (int i = 0; i < 4; i++) {
            assertThrows(LlmException.class, () -> breaker.complete(JsonValue.EMPTY_JSON_OBJECT));
        }
        assertEquals("ok", breaker.complete(JsonValue.EMPTY_JSON_OBJECT).content(), "one health failure is below the threshold");
    }
}
