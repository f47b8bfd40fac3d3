package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Why MicroProfile JWT did not accept a request's bearer token, found after the fact and only for requests without a
 * caller, so a successful call costs nothing: the token is checked once more by {@link BearerTokens}, the one
 * verification path outside mpJwt (same issuer, JWKS, audience and clock skew as server.xml's {@code mpJwt}, plus
 * revoked API keys and deleted users). MicroProfile JWT stays the authenticator; this only names the reason.
 */
@ApplicationScoped
public class TokenRefusalReason {

    @Inject
    BearerTokens tokens;

    /** The answer for a request without an accepted bearer token, from its {@code Authorization} header (or null). */
    public TokenRefusal of(String authorization) {
        if (authorization == null || authorization.isBlank()) {
            return TokenRefusal.missing();
        }
        try {
            tokens.verify(bearerToken(authorization));
            return TokenRefusal.unexplained();
        } catch (TokenRefused refused) {
            return TokenRefusal.of(refused);
        }
    }

    private static String bearerToken(String authorization) {
        if (authorization.strip().equalsIgnoreCase("Bearer")) {
            throw new TokenRefused(TokenRefused.Reason.MALFORMED, "the Authorization header has no token after 'Bearer'");
        }
        if (authorization.length() < 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new TokenRefused(TokenRefused.Reason.MALFORMED, "the Authorization header is not 'Bearer <token>'");
        }
        return authorization.substring(7).strip();
    }
}
