package dev.switchboard.gateway.modern;

import dev.switchboard.gateway.GatewayThreads;
import dev.switchboard.security.SecretCipher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * This member's stateless requests whose backend calls wait for their clients' input ({@link PausedCall}), found by
 * the id their sealed {@link RequestState} names. Bounded: past {@code switchboard.gateway.input-required.max-paused}
 * a backend's question is refused as if the client could not be asked, so waiting clients cannot pile up threads. A
 * call leaves when its outcome is known; a question the client leaves unanswered fails after
 * {@code switchboard.gateway.input-required.timeout}, which ends the backend call and with it the pause.
 */
@ApplicationScoped
public class PausedCalls {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, PausedCall> byId = new ConcurrentHashMap<>();
    private SecretCipher cipher;
    private Executor workers;
    private Duration timeout;
    private int maxPaused;
    private Clock clock = Clock.systemUTC();

    protected PausedCalls() {
        // for CDI
    }

    @Inject
    PausedCalls(SecretCipher cipher, GatewayThreads threads,
                @ConfigProperty(name = "switchboard.gateway.input-required.timeout", defaultValue = "PT5M") Duration timeout,
                @ConfigProperty(name = "switchboard.gateway.input-required.max-paused", defaultValue = "1000") int maxPaused) {
        this(cipher, threads.executor(), timeout, maxPaused);
    }

    PausedCalls(SecretCipher cipher, Executor workers, Duration timeout, int maxPaused) {
        this.cipher = cipher;
        this.workers = workers;
        this.timeout = timeout;
        this.maxPaused = maxPaused;
    }

    /** A call that may pause; it is findable only once it has {@link #pause paused}. */
    PausedCall newCall(RequestState.Binding binding) {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        return new PausedCall(HexFormat.of().formatHex(id), binding);
    }

    /** Registers a call that asks its client; false when this member holds as many as it may. */
    boolean pause(PausedCall call) {
        if (byId.containsKey(call.id())) {
            return true;
        }
        if (byId.size() >= maxPaused) {
            return false;
        }
        byId.put(call.id(), call);
        call.outcome().whenComplete((r, e) -> byId.remove(call.id()));
        return true;
    }

    Optional<PausedCall> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The sealed state of the call's current round. */
    String stateOf(PausedCall call) {
        return new RequestState(call.id(), call.round(), call.binding(), Instant.now(clock).plus(timeout)).seal(cipher);
    }

    Optional<RequestState> open(String sealed) {
        return RequestState.open(cipher, sealed);
    }

    Instant now() {
        return Instant.now(clock);
    }

    Duration timeout() {
        return timeout;
    }

    Executor workers() {
        return workers;
    }

    int size() {
        return byId.size();
    }
}
