package dev.switchboard.security;

import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * Where {@link SignInThrottle} keeps its tallies: {@link LocalSignInTallies} in this JVM; in cluster mode the
 * {@code cluster} room's implementation in Hazelcast, so failures on one member count on all of them.
 */
public interface SignInTallies {

    /**
     * Replaces the tally under {@code key} by {@code change} applied to it (null when there is none), atomically; a
     * null result removes it, the same tally returned leaves it as it is.
     *
     * @param keepFor how long an untouched tally must at least be kept
     */
    void update(String key, UnaryOperator<SignInTally> change, Duration keepFor);
}
