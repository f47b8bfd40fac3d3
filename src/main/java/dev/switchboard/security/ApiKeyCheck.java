package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Whether a caller's API key may still be used. An API key is a valid JWT for as long as it lives, so the signature
 * alone cannot tell a revoked one: it is accepted only while its hash is known and not revoked. Not transactional
 * itself: a key the database confirmed a moment ago ({@link VerifiedApiKeys}) needs no transaction.
 * JAX-RS requests are checked by {@link ApiKeyFilter}; servlet and WebSocket endpoints call this themselves.
 */
@ApplicationScoped
public class ApiKeyCheck {

    @Inject
    ApiKeys apiKeys;

    @Inject
    VerifiedApiKeys verifiedKeys;

    /** True when the caller came with an API key that is unknown here or revoked; false for every other caller. */
    public boolean rejects(CurrentUser caller) {
        return caller.isApiKey() && revoked(caller.rawToken());
    }

    /** True when this API key (a token with {@code token_use: api_key}) is unknown here or revoked. */
    boolean revoked(String apiKey) {
        String hash = ApiKeys.sha256Hex(apiKey);
        if (verifiedKeys.recentlyVerified(hash)) {
            return false;
        }
        long revocationsBefore = verifiedKeys.revocationCount();
        if (!apiKeys.isActive(hash)) {
            return true;
        }
        verifiedKeys.remember(hash, revocationsBefore);
        return false;
    }
}
