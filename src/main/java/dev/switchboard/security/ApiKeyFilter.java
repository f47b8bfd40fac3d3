package dev.switchboard.security;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * An API key is a valid JWT for as long as it lives, so the signature alone cannot tell a revoked one:
 * this filter accepts a token with {@code token_use=api_key} only while its hash is known and not revoked.
 */
@Provider
@Priority(Priorities.AUTHENTICATION + 1)
public class ApiKeyFilter implements ContainerRequestFilter {

    @Inject
    CurrentUser currentUser;

    @Inject
    ApiKeys apiKeys;

    @Override
    public void filter(ContainerRequestContext request) {
        // only an API key needs the database; asking the transactional bean for a token costs a transaction
        if (currentUser.isApiKey() && apiKeys.rejects(currentUser)) {
            request.abortWith(SecurityErrors.unauthorized("api_key_revoked", "API key revoked",
                    "Bearer realm=\"switchboard\", error=\"invalid_token\""));
        }
    }
}
