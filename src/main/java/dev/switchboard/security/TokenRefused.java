package dev.switchboard.security;

import java.time.Instant;

/**
 * A bearer token {@link BearerTokens} did not accept, and why. Callers turn the reason into their own protocol's
 * error (the query dialect's -31000 with a {@code reason}); the message is English for logs and never holds the token.
 */
public final class TokenRefused extends RuntimeException {

    public enum Reason {
        MALFORMED, ALGORITHM, CRITICAL_HEADER, UNKNOWN_KEY, KEYS_UNAVAILABLE, SIGNATURE, ISSUER, AUDIENCE,
        MISSING_EXPIRY, MISSING_SUBJECT, EXPIRED, NOT_YET_VALID, API_KEY_REVOKED, USER_NOT_ACTIVE
    }

    private final Reason reason;
    private final transient Instant expiresAt;

    public TokenRefused(Reason reason, String message) {
        this(reason, message, null);
    }

    public TokenRefused(Reason reason, String message, Instant expiresAt) {
        super(message, null, false, false);
        this.reason = reason;
        this.expiresAt = expiresAt;
    }

    public Reason reason() {
        return reason;
    }

    /** When an {@link Reason#EXPIRED expired} token expired; null for every other reason. */
    public Instant expiresAt() {
        return expiresAt;
    }
}
