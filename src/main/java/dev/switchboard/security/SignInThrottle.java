package dev.switchboard.security;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Failed sign-ins counted per account (the name tried, whether or not such a user exists, so the answers cannot tell
 * which names exist) and per client address. Past a number of free failures each further attempt must wait a growing
 * delay after the last failure; at a threshold the account or address is locked for a while, until it expires or an
 * administrator lifts it. A success resets its account's count, never its address's (an attacker holding one valid
 * account could otherwise reset the count between guesses); counts are forgotten after a quiet period. Kept in memory
 * per server instance: both maps are bounded, the least recently touched entry goes first.
 */
final class SignInThrottle {

    enum Scope { ACCOUNT, ADDRESS }

    /**
     * @param freeFailures failures answered without delay
     * @param firstDelay   the wait after the first failure past the free ones, doubled by each further failure
     * @param maxDelay     the longest wait
     * @param lockAfter    failures that lock (0: never)
     * @param lockFor      how long a lock lasts unless lifted
     * @param forgetAfter  a count with no failure for this long starts again from zero
     */
    record Rules(int freeFailures, Duration firstDelay, Duration maxDelay, int lockAfter, Duration lockFor,
                 Duration forgetAfter) {

        Duration delayAfter(int failures) {
            if (failures <= freeFailures) {
                return Duration.ZERO;
            }
            int doublings = Math.min(failures - freeFailures - 1, 30);
            Duration delay = firstDelay.multipliedBy(1L << doublings);
            return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
        }

        boolean locks(int failures) {
            return lockAfter > 0 && failures >= lockAfter;
        }
    }

    private static final class Tally {
        int failures;
        Instant lastFailure;
        Instant lockedUntil;
        /** A refused attempt in the current wait was reported already: one audit row per wait, not per request. */
        boolean refusalReported;
    }

    private final Map<Scope, Rules> rules;
    private final Map<Scope, Map<String, Tally>> tallies;

    SignInThrottle(Rules account, Rules address, int maxTracked) {
        rules = Map.of(Scope.ACCOUNT, account, Scope.ADDRESS, address);
        tallies = Map.of(Scope.ACCOUNT, bounded(maxTracked), Scope.ADDRESS, bounded(maxTracked));
    }

    private static Map<String, Tally> bounded(int max) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Tally> eldest) {
                return size() > max;
            }
        };
    }

    /** A refusal: how long to wait, whether a lock refused it, and whether it is the first of its wait. */
    record Wait(Duration retryAfter, boolean locked, boolean firstOfItsWait) {
    }

    /** Null when an attempt may be checked now; otherwise the longer of the account's and the address's waits. */
    synchronized Wait check(String account, String address, Instant now) {
        Duration longest = null;
        boolean locked = false;
        boolean first = false;
        for (Scope scope : Scope.values()) {
            Tally tally = current(scope, key(scope, account, address), now);
            if (tally == null) {
                continue;
            }
            Instant until = tally.lockedUntil != null ? tally.lockedUntil
                    : tally.lastFailure.plus(rules.get(scope).delayAfter(tally.failures));
            if (until.isAfter(now)) {
                first |= !tally.refusalReported;
                tally.refusalReported = true;
                Duration wait = Duration.between(now, until);
                if (longest == null || wait.compareTo(longest) > 0) {
                    longest = wait;
                    locked = tally.lockedUntil != null;
                }
            }
        }
        return longest == null ? null : new Wait(longest, locked, first);
    }

    /** Counts a failure; returns the scopes this failure locked. */
    synchronized Set<Scope> failed(String account, String address, Instant now) {
        Set<Scope> locked = EnumSet.noneOf(Scope.class);
        for (Scope scope : Scope.values()) {
            String key = key(scope, account, address);
            Tally tally = current(scope, key, now);
            if (tally == null) {
                tally = new Tally();
                tallies.get(scope).put(key, tally);
            }
            tally.failures++;
            tally.lastFailure = now;
            tally.refusalReported = false;
            if (tally.lockedUntil == null && rules.get(scope).locks(tally.failures)) {
                tally.lockedUntil = now.plus(rules.get(scope).lockFor());
                locked.add(scope);
            }
        }
        return locked;
    }

    synchronized void succeeded(String account) {
        tallies.get(Scope.ACCOUNT).remove(account);
    }

    /** Lifts the account's lock and forgets its failures; true when it was locked. */
    synchronized boolean unlock(String account, Instant now) {
        Tally tally = current(Scope.ACCOUNT, account, now);
        tallies.get(Scope.ACCOUNT).remove(account);
        return tally != null && tally.lockedUntil != null;
    }

    synchronized boolean isLocked(String account, Instant now) {
        Tally tally = current(Scope.ACCOUNT, account, now);
        return tally != null && tally.lockedUntil != null;
    }

    /** The live tally: null when there is none, its lock ran out, or it has been quiet long enough to forget. */
    private Tally current(Scope scope, String key, Instant now) {
        Map<String, Tally> map = tallies.get(scope);
        Tally tally = map.get(key);
        if (tally == null) {
            return null;
        }
        boolean lockOver = tally.lockedUntil != null && !tally.lockedUntil.isAfter(now);
        boolean quiet = tally.lockedUntil == null && !tally.lastFailure.plus(rules.get(scope).forgetAfter()).isAfter(now);
        if (lockOver || quiet) {
            map.remove(key);
            return null;
        }
        return tally;
    }

    private static String key(Scope scope, String account, String address) {
        return scope == Scope.ACCOUNT ? account : address;
    }
}
