package dev.switchboard.security;

import java.io.Serializable;
import java.time.Instant;

/**
 * The failed sign-ins of one account or client address as {@link SignInThrottle} counts them.
 *
 * @param failures        failures counted since the count started
 * @param lastFailure     when the last one happened
 * @param lockedUntil     the end of a lock, or null when not locked
 * @param refusalReported a refused attempt in the current wait was reported already: one audit row per wait, not per
 *                        request
 */
public record SignInTally(int failures, Instant lastFailure, Instant lockedUntil, boolean refusalReported)
        implements Serializable {

    SignInTally reported() {
        return new SignInTally(failures, lastFailure, lockedUntil, true);
    }
}
