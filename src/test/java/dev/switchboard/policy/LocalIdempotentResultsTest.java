package dev.switchboard.policy;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocalIdempotentResultsTest {

    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final LocalIdempotentResults results = new LocalIdempotentResults(Duration.ofMinutes(10), 100, Duration.ofSeconds(5), nanos::get);
    final JsonObject first = Json.createObjectBuilder().add("text", "first").build();

    @Test
    void theFirstClaimRunsAndLaterOnesGetItsResult() {
        IdempotentResults.Claim claim = results.claim("k", "a__t", "h1");
        assertEquals(IdempotentResults.Verdict.RUN, claim.verdict());
        results.complete(claim.ticket(), first);
        IdempotentResults.Claim again = results.claim("k", "a__t", "h1");
        assertEquals(IdempotentResults.Verdict.ANSWER, again.verdict());
        assertEquals(first, again.result());
        assertEquals(IdempotentResults.Verdict.CONFLICT, results.claim("k", "a__t", "h2").verdict(), "other arguments");
        assertEquals(IdempotentResults.Verdict.CONFLICT, results.claim("k", "a__u", "h1").verdict(), "another tool");
    }

    @Test
    void aCallArrivingWhileTheFirstRunsWaitsForItsResult() throws Exception {
        IdempotentResults.Claim claim = results.claim("k", "a__t", "h1");
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<IdempotentResults.Claim> second = CompletableFuture.supplyAsync(() -> {
            waiting.countDown();
            return results.claim("k", "a__t", "h1");
        });
        assertTrue(waiting.await(5, TimeUnit.SECONDS));
        Thread.sleep(100);
        assertFalse(second.isDone(), "waits while the first call runs");
        results.complete(claim.ticket(), first);
        IdempotentResults.Claim answered = second.get(5, TimeUnit.SECONDS);
        assertEquals(IdempotentResults.Verdict.ANSWER, answered.verdict());
        assertEquals(first, answered.result());
    }

    @Test
    void anAbandonedClaimFreesTheKeyForTheNextCallAndALateAbandonLeavesTheNextClaimAlone() {
        LocalIdempotentResults shortWait = new LocalIdempotentResults(Duration.ofMinutes(1), 10, Duration.ofMillis(50), nanos::get);
        IdempotentResults.Claim claim = shortWait.claim("k", "a__t", "h1");
        shortWait.abandon(claim.ticket());
        IdempotentResults.Claim next = shortWait.claim("k", "a__t", "h1");
        assertEquals(IdempotentResults.Verdict.RUN, next.verdict());
        assertNotEquals(claim.ticket(), next.ticket());
        shortWait.abandon(claim.ticket());
        assertEquals(IdempotentResults.Verdict.STILL_RUNNING, shortWait.claim("k", "a__t", "h1").verdict(),
                "the next claim still holds the key, and a wait has an end");
    }

    @Test
    void aResultIsAnsweredForTheWindowOnly() {
        results.complete(results.claim("k", "a__t", "h1").ticket(), first);
        nanos.addAndGet(Duration.ofMinutes(10).toNanos());
        assertEquals(IdempotentResults.Verdict.ANSWER, results.claim("k", "a__t", "h1").verdict());
        nanos.addAndGet(1);
        assertEquals(IdempotentResults.Verdict.RUN, results.claim("k", "a__t", "h1").verdict());
    }
}
