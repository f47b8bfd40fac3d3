package dev.switchboard.security;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;

/** Refuses a revoked or unknown API key on the REST API ({@link ApiKeyCheck}). */
@Provider
@Priority(Priorities.AUTHENTICATION + 1)
public class ApiKeyFilter implements ContainerRequestFilter {

    @Inject
    CurrentUser currentUser;

    @Inject
    ApiKeyCheck apiKeyCheck;

    @Override
    public void filter(ContainerRequestContext request) {
        if (apiKeyCheck.rejects(currentUser)) {
            request.abortWith(SecurityErrors.apiKeyRevoked());
        }
    }
}
