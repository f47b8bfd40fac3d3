package dev.switchboard.backend.access;

import dev.switchboard.mcp.McpException;
import dev.switchboard.testing.MutableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The breaker and bulkhead of one backend, on a clock the test moves. */
class BackendGuardTest {

    final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    final AtomicInteger reached = new AtomicInteger();

    BackendGuard guard(int minCalls, int maxConcurrent, Duration maxWait) {
        return new BackendGuard("b", new ResilienceSettings(4, minCalls, 50, Duration.ofSeconds(10), maxConcurrent, maxWait), clock);
    }

    String ok() {
        reached.incrementAndGet();
        return "ok";
    }

    String fail(McpException.Kind kind) throws McpException {
        reached.incrementAndGet();
        throw kind == McpException.Kind.RPC_ERROR ? McpException.rpcError(-32000, "tool said no", null)
                : new McpException(kind, "down");
    }

    @Test
    void opensAfterFailuresRefusesWithoutCallingThenAProbeClosesIt() throws Exception {
        BackendGuard guard = guard(3, 8, Duration.ZERO);
        for (int i = 0; i < 3; i++) {
            assertThrows(McpException.class, () -> guard.call(() -> fail(McpException.Kind.CONNECT_REFUSED)));
        }
        assertEquals(CircuitBreaker.State.OPEN, guard.state());
        int before = reached.get();
        McpException refused = assertThrows(McpException.class, () -> guard.call(this::ok));
        assertEquals("circuit breaker open: 3 of the last 3 calls failed; not called before 2026-01-01T00:00:10Z",
                refused.getMessage());
        assertThrows(McpException.class, () -> guard.lookup(this::ok));
        assertEquals(before, reached.get(), "an open breaker never reaches the backend");
        assertEquals(2, guard.breakerRejections());

        clock.advance(Duration.ofSeconds(10).plusMillis(1));
        assertEquals("ok", guard.call(this::ok), "after the open duration one probe passes");
        assertEquals(CircuitBreaker.State.CLOSED, guard.state());
    }

    @Test
    void aFailedProbeOpensItAgain() {
        BackendGuard guard = guard(2, 8, Duration.ZERO);
        for (int i = 0; i < 2; i++) {
            assertThrows(McpException.class, () -> guard.call(() -> fail(McpException.Kind.TIMEOUT)));
        }
        clock.advance(Duration.ofSeconds(11));
        assertThrows(McpException.class, () -> guard.call(() -> fail(McpException.Kind.CLOSED)));
        assertEquals(CircuitBreaker.State.OPEN, guard.state());
    }

    @Test
    void whileItsProbeIsUnderWayOtherCallsAreToldSo() throws Exception {
        BackendGuard guard = guard(2, 8, Duration.ZERO);
        for (int i = 0; i < 2; i++) {
            assertThrows(McpException.class, () -> guard.call(() -> fail(McpException.Kind.TIMEOUT)));
        }
        clock.advance(Duration.ofSeconds(11));
        McpException[] refused = new McpException[1];
        assertEquals("ok", guard.call(() -> {
            refused[0] = assertThrows(McpException.class, () -> guard.call(this::ok));
            return "ok";
        }));
        assertEquals("circuit breaker half-open: a probe call is under way, other calls wait for it to succeed",
                refused[0].getMessage());
        assertEquals(CircuitBreaker.State.CLOSED, guard.state());
    }

    @Test
    void backendAnswersAndCancellationsDoNotCount() {
        BackendGuard guard = guard(2, 8, Duration.ZERO);
        for (int i = 0; i < 6; i++) {
            assertThrows(McpException.class, () -> guard.call(() -> fail(McpException.Kind.RPC_ERROR)));
            assertThrows(McpException.class, () -> guard.call(() -> fail(McpException.Kind.CANCELLED)));
        }
        assertEquals(CircuitBreaker.State.CLOSED, guard.state());
    }

    @Test
    void cachedLookupsNeitherHideFailuresNorCountAsSuccess() throws Exception {
        BackendGuard guard = guard(2, 8, Duration.ZERO);
        for (int i = 0; i < 5; i++) {
            guard.lookup(this::ok);
        }
        assertThrows(McpException.class, () -> guard.call(() -> fail(McpException.Kind.CONNECT_REFUSED)));
        assertThrows(McpException.class, () -> guard.lookup(() -> fail(McpException.Kind.CONNECT_REFUSED)));
        assertEquals(CircuitBreaker.State.OPEN, guard.state());
    }

    @Test
    void theBulkheadBoundsCallsInFlightAndRefusesAfterItsWait() throws Exception {
        BackendGuard guard = guard(5, 2, Duration.ofMillis(100));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<String>> holders = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                holders.add(pool.submit(() -> guard.call(() -> {
                    inside.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new McpException(McpException.Kind.CANCELLED, "interrupted");
                    }
                    return "held";
                })));
            }
            assertTrue(inside.await(5, TimeUnit.SECONDS));
            assertEquals(2, guard.callsInFlight());
            long started = System.nanoTime();
            McpException full = assertThrows(McpException.class, () -> guard.call(this::ok));
            assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(90), "it waited for a slot first");
            assertEquals("bulkhead full: 2 calls in flight (switchboard.resilience.bulkhead.max-concurrent), none finished "
                    + "within 100 ms; not called", full.getMessage());
            assertEquals(0, reached.get());
            assertEquals(1, guard.bulkheadRejections());
            release.countDown();
            for (Future<String> holder : holders) {
                assertEquals("held", holder.get(5, TimeUnit.SECONDS));
            }
            assertEquals(0, guard.callsInFlight());
            assertEquals("ok", guard.call(this::ok));
            assertEquals(CircuitBreaker.State.CLOSED, guard.state(), "a full bulkhead is no failure of the backend");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void settingsAreChecked() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ResilienceSettings(10, 5, 0, Duration.ofSeconds(1), 1, Duration.ZERO));
        assertEquals("breaker failure-rate is a percentage from 1 to 100, not 0", e.getMessage());
    }
}
