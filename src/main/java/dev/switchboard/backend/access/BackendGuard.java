package dev.switchboard.backend.access;

import dev.switchboard.mcp.McpException;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.internal.CircuitBreakerStateMachine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One backend's circuit breaker and bulkhead. Only failures that say the backend is unwell count against the
 * breaker (unreachable, too slow, broken session, bad HTTP status, not MCP); a JSON-RPC error is an answer, and a
 * call the client cancelled says nothing. An open breaker refuses at once; after its open duration one probe call
 * passes and decides. Bulkhead slots are taken only by calls that may reach the backend.
 */
public final class BackendGuard {

    /** What a guarded call does. */
    @FunctionalInterface
    public interface Call<T> {
        T run() throws McpException;
    }

    private final String backend;
    private final ResilienceSettings settings;
    private final CircuitBreaker breaker;
    private final Bulkhead bulkhead;
    private final Clock clock;
    private final AtomicLong breakerRejections = new AtomicLong();
    private final AtomicLong bulkheadRejections = new AtomicLong();
    private volatile Instant openedAt;

    public BackendGuard(String backend, ResilienceSettings settings, Clock clock) {
        this.backend = backend;
        this.settings = settings;
        this.clock = clock;
        // the state machine's own constructor is the one that takes a clock (tests move time instead of sleeping)
        this.breaker = new CircuitBreakerStateMachine(backend, CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(settings.breakerWindow())
                .minimumNumberOfCalls(Math.min(settings.breakerMinCalls(), settings.breakerWindow()))
                .failureRateThreshold(settings.breakerFailureRate())
                // slowness is judged by each server's own timeout, which fails the call (and counts) already
                .slowCallDurationThreshold(Duration.ofDays(1))
                .waitDurationInOpenState(settings.breakerOpenDuration())
                .permittedNumberOfCallsInHalfOpenState(1)
                // the lazy transition: an automatic one would need a scheduler thread outside the container's control
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .currentTimestampFunction(Clock::millis, TimeUnit.MILLISECONDS)
                .build(), clock);
        breaker.getEventPublisher().onStateTransition(event -> {
            if (event.getStateTransition().getToState() == CircuitBreaker.State.OPEN) {
                openedAt = clock.instant();
            }
        });
        this.bulkhead = Bulkhead.of(backend, BulkheadConfig.custom()
                .maxConcurrentCalls(settings.maxConcurrentCalls())
                .maxWaitDuration(settings.maxWait())
                .build());
    }

    /** A call that may reach the backend: refused while the breaker is open or the bulkhead stays full. */
    public <T> T call(Call<T> call) throws McpException {
        admit();
        if (!bulkhead.tryAcquirePermission()) {
            breaker.releasePermission();
            bulkheadRejections.incrementAndGet();
            throw McpException.ownWords(McpException.Kind.CONNECT_REFUSED, "bulkhead full: " + settings.maxConcurrentCalls()
                    + " calls in flight (switchboard.resilience.bulkhead.max-concurrent), none finished within "
                    + settings.maxWait().toMillis() + " ms; not called", null);
        }
        long started = clock.millis();
        try {
            T result = call.run();
            breaker.onSuccess(clock.millis() - started, TimeUnit.MILLISECONDS);
            return result;
        } catch (McpException e) {
            judge(e, clock.millis() - started);
            throw e;
        } catch (RuntimeException e) {
            breaker.releasePermission();
            throw e;
        } finally {
            bulkhead.onComplete();
        }
    }

    /**
     * A look-up the pool may answer from its cache (tools, initialize result): refused while the breaker is open,
     * its failures count, but a success proves nothing about the backend (it may never have been asked).
     */
    public <T> T lookup(Call<T> call) throws McpException {
        admit();
        long started = clock.millis();
        try {
            T result = call.run();
            breaker.releasePermission();
            return result;
        } catch (McpException e) {
            if (countsAgainst(e)) {
                breaker.onError(clock.millis() - started, TimeUnit.MILLISECONDS, e);
            } else {
                breaker.releasePermission();
            }
            throw e;
        } catch (RuntimeException e) {
            breaker.releasePermission();
            throw e;
        }
    }

    public CircuitBreaker.State state() {
        return breaker.getState();
    }

    public int callsInFlight() {
        return settings.maxConcurrentCalls() - bulkhead.getMetrics().getAvailableConcurrentCalls();
    }

    public int maxConcurrentCalls() {
        return settings.maxConcurrentCalls();
    }

    public long breakerRejections() {
        return breakerRejections.get();
    }

    public long bulkheadRejections() {
        return bulkheadRejections.get();
    }

    public String backend() {
        return backend;
    }

    private void admit() throws McpException {
        if (breaker.tryAcquirePermission()) {
            return;
        }
        breakerRejections.incrementAndGet();
        if (breaker.getState() == CircuitBreaker.State.HALF_OPEN) {
            // the open time is over and one call was let through to test the backend; its figures are not in yet
            throw McpException.ownWords(McpException.Kind.CONNECT_REFUSED,
                    "circuit breaker half-open: a probe call is under way, other calls wait for it to succeed", null);
        }
        CircuitBreaker.Metrics metrics = breaker.getMetrics();
        Instant opened = openedAt;
        String until = opened == null ? "its probe call ends" : opened.plus(settings.breakerOpenDuration()).toString();
        throw McpException.ownWords(McpException.Kind.CONNECT_REFUSED, "circuit breaker open: " + metrics.getNumberOfFailedCalls()
                + " of the last " + metrics.getNumberOfBufferedCalls() + " calls failed; not called before " + until, null);
    }

    private void judge(McpException e, long millis) {
        if (countsAgainst(e)) {
            breaker.onError(millis, TimeUnit.MILLISECONDS, e);
        } else if (e.kind() == McpException.Kind.RPC_ERROR) {
            breaker.onSuccess(millis, TimeUnit.MILLISECONDS);
        } else {
            breaker.releasePermission();
        }
    }

    private static boolean countsAgainst(McpException e) {
        return e.kind() != McpException.Kind.RPC_ERROR && e.kind() != McpException.Kind.CANCELLED;
    }
}
