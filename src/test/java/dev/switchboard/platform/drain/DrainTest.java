package dev.switchboard.platform.drain;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import org.junit.jupiter.api.Test;

import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DrainTest {

    @Test
    void streamsAreToldFirstAndTheMemberLeavesOnlyAfterTheAdmittedCallFinished() throws Exception {
        List<Object> fired = new ArrayList<>();
        Drain drain = drain(Duration.ofSeconds(5), fired);
        InFlight.Ticket call = drain.admit().orElseThrow();
        Thread finisher = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            fired.add("call finished");
            call.close();
        });
        finisher.start();
        Drained outcome = drain.finish("test");
        finisher.join();
        assertEquals(List.of(new DrainStarted("test", Drain.RETRY), "call finished", new Drained(true, 0)), fired);
        assertSame(outcome, drain.finish("the application is stopping"), "a later stop hook finds the drain over");
        assertEquals(3, fired.size(), "each event once");
    }

    @Test
    void theGraceEndsTheWaitAndSaysWhatStillRuns() {
        List<Object> fired = new ArrayList<>();
        Drain drain = drain(Duration.ofMillis(100), fired);
        drain.admit().orElseThrow();
        drain.admit().orElseThrow();
        Drained outcome = drain.finish("test");
        assertFalse(outcome.idle());
        assertEquals(2, outcome.stillRunning());
        assertTrue(drain.draining());
        assertEquals(new Drained(false, 2), fired.get(fired.size() - 1));
    }

    static Drain drain(Duration timeout, List<Object> fired) {
        Drain drain = new Drain();
        drain.timeout = timeout;
        drain.started = new Recording<>(fired);
        drain.drained = new Recording<>(fired);
        return drain;
    }

    /** Records what is fired, in order, as the observers of the application would see it. */
    private record Recording<T>(List<Object> fired) implements Event<T> {

        @Override
        public void fire(T event) {
            fired.add(event);
        }

        @Override
        public <U extends T> CompletionStage<U> fireAsync(U event) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends T> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Event<T> select(Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends T> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends T> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }
    }
}
