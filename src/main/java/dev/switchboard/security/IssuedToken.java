package dev.switchboard.security;

import java.time.Instant;

/** A freshly signed token and the facts the caller may need to record about it. */
public record IssuedToken(String token, String jti, Instant issuedAt, Instant expiresAt) {
}
