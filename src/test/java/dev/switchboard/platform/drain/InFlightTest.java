package dev.switchboard.platform.drain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InFlightTest {

    @Test
    void closedAdmitsNothingButWaitsForWhatItAdmittedBefore() throws Exception {
        InFlight inFlight = new InFlight();
        InFlight.Ticket call = inFlight.enter().orElseThrow();
        assertTrue(inFlight.close(), "the first close is the one that closed it");
        assertFalse(inFlight.close());
        assertTrue(inFlight.enter().isEmpty(), "no new work once closed");
        assertEquals(1, inFlight.running());

        CompletableFuture<Boolean> idle = CompletableFuture.supplyAsync(() -> {
            try {
                return inFlight.awaitIdle(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(100);
        assertFalse(idle.isDone(), "still waiting for the admitted call");
        call.close();
        assertTrue(idle.get(5, TimeUnit.SECONDS));
        assertEquals(0, inFlight.running());
    }

    @Test
    void waitingEndsAtItsLimitWhenWorkStillRuns() throws Exception {
        InFlight inFlight = new InFlight();
        inFlight.enter().orElseThrow();
        inFlight.close();
        long started = System.nanoTime();
        assertFalse(inFlight.awaitIdle(Duration.ofMillis(200)));
        long waited = (System.nanoTime() - started) / 1_000_000;
        assertTrue(waited >= 190 && waited < 2000, "waited " + waited + " ms");
        assertEquals(1, inFlight.running());
    }

    @Test
    void aTicketClosedTwiceCountsOnce() throws Exception {
        InFlight inFlight = new InFlight();
        InFlight.Ticket first = inFlight.enter().orElseThrow();
        InFlight.Ticket second = inFlight.enter().orElseThrow();
        first.close();
        first.close();
        assertEquals(1, inFlight.running(), "the second call still runs");
        assertEquals(2, inFlight.admitted());
        second.close();
        assertTrue(inFlight.awaitIdle(Duration.ZERO));
    }
}
