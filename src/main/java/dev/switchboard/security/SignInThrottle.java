package dev.switchboard.security;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Failed sign-ins counted per account (the name tried, whether or not such a user exists, so the answers cannot tell
 * which names exist) and per client address. Past a number of free failures each further attempt must wait a growing
 * delay after the last failure; at a threshold the account or address is locked for a while, until it expires or an
 * administrator lifts it. A success resets its account's count, never its address's (an attacker holding one valid
 * account could otherwise reset the count between guesses); counts are forgotten after a quiet period. The tallies
 * live in {@link SignInTallies}: in this JVM, or shared by the members of a cluster.
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

        /** How long a tally can matter: the longer of a lock and the quiet period. */
        Duration keepFor() {
            return lockFor.compareTo(forgetAfter) > 0 ? lockFor : forgetAfter;
        }

        /** The tally as it counts at {@code now}: null when there is none, its lock ran out, or it was quiet long enough. */
        SignInTally live(SignInTally tally, Instant now) {
            if (tally == null) {
                return null;
            }
            boolean lockOver = tally.lockedUntil() != null && !tally.lockedUntil().isAfter(now);
            boolean quiet = tally.lockedUntil() == null && !tally.lastFailure().plus(forgetAfter).isAfter(now);
            return lockOver || quiet ? null : tally;
        }
    }

    /** A refusal: how long to wait, whether a lock refused it, and whether it is the first of its wait. */
    record Wait(Duration retryAfter, boolean locked, boolean firstOfItsWait) {
    }

    private final Map<Scope, Rules> rules;
    private final SignInTallies tallies;

    SignInThrottle(Rules account, Rules address, SignInTallies tallies) {
        this.rules = Map.of(Scope.ACCOUNT, account, Scope.ADDRESS, address);
        this.tallies = tallies;
    }

    /** Null when an attempt may be checked now; otherwise the longer of the account's and the address's waits. */
    Wait check(String account, String address, Instant now) {
        Wait longest = null;
        boolean first = false;
        for (Scope scope : Scope.values()) {
            Rules rule = rules.get(scope);
            Wait[] wait = new Wait[1];
            tallies.update(key(scope, account, address), stored -> {
                SignInTally tally = rule.live(stored, now);
                wait[0] = null;
                if (tally == null) {
                    return null;
                }
                Instant until = tally.lockedUntil() != null ? tally.lockedUntil()
                        : tally.lastFailure().plus(rule.delayAfter(tally.failures()));
                if (!until.isAfter(now)) {
                    return tally;
                }
                wait[0] = new Wait(Duration.between(now, until), tally.lockedUntil() != null, !tally.refusalReported());
                return tally.refusalReported() ? tally : tally.reported();
            }, rule.keepFor());
            if (wait[0] != null) {
                first |= wait[0].firstOfItsWait();
                if (longest == null || wait[0].retryAfter().compareTo(longest.retryAfter()) > 0) {
                    longest = wait[0];
                }
            }
        }
        return longest == null ? null : new Wait(longest.retryAfter(), longest.locked(), first);
    }

    /** Counts a failure; returns the scopes this failure locked. */
    Set<Scope> failed(String account, String address, Instant now) {
        Set<Scope> locked = EnumSet.noneOf(Scope.class);
        for (Scope scope : Scope.values()) {
            Rules rule = rules.get(scope);
            tallies.update(key(scope, account, address), stored -> {
                SignInTally tally = rule.live(stored, now);
                int failures = tally == null ? 1 : tally.failures() + 1;
                Instant lockedUntil = tally == null ? null : tally.lockedUntil();
                locked.remove(scope);
                if (lockedUntil == null && rule.locks(failures)) {
                    lockedUntil = now.plus(rule.lockFor());
                    locked.add(scope);
                }
                return new SignInTally(failures, now, lockedUntil, false);
            }, rule.keepFor());
        }
        return locked;
    }

    void succeeded(String account) {
        tallies.update(key(Scope.ACCOUNT, account, null), stored -> null, rules.get(Scope.ACCOUNT).keepFor());
    }

    /** Lifts the account's lock and forgets its failures; true when it was locked. */
    boolean unlock(String account, Instant now) {
        return accountLocked(account, now, true);
    }

    boolean isLocked(String account, Instant now) {
        return accountLocked(account, now, false);
    }

    /** Whether the account is locked now; {@code forget} drops its tally too. */
    private boolean accountLocked(String account, Instant now, boolean forget) {
        boolean[] locked = new boolean[1];
        Rules rule = rules.get(Scope.ACCOUNT);
        tallies.update(key(Scope.ACCOUNT, account, null), stored -> {
            SignInTally tally = rule.live(stored, now);
            locked[0] = tally != null && tally.lockedUntil() != null;
            return forget ? null : tally;
        }, rule.keepFor());
        return locked[0];
    }

    /** Accounts and addresses share one store: the scope keeps their keys apart. */
    private static String key(Scope scope, String account, String address) {
        return scope == Scope.ACCOUNT ? "account\u0000" + account : "address\u0000" + address;
    }
}
