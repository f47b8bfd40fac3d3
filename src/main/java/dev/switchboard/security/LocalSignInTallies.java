package dev.switchboard.security;

import jakarta.enterprise.context.Dependent;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Sign-in tallies in this JVM, bounded: beyond {@code maxTracked} the least recently touched tally goes first.
 * Dependent: the one {@link LocalLogin} holds it.
 */
@Dependent
public final class LocalSignInTallies implements SignInTallies {

    /** Accounts and addresses together. */
    private static final int MAX_TRACKED = 200_000;

    private final Map<String, SignInTally> tallies;

    public LocalSignInTallies() {
        this(MAX_TRACKED);
    }

    LocalSignInTallies(int maxTracked) {
        tallies = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, SignInTally> eldest) {
                return size() > maxTracked;
            }
        };
    }

    @Override
    public synchronized void update(String key, UnaryOperator<SignInTally> change, Duration keepFor) {
        SignInTally next = change.apply(tallies.get(key));
        if (next == null) {
            tallies.remove(key);
        } else {
            tallies.put(key, next);
        }
    }
}
