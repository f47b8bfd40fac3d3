package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Response;

import java.util.Collection;
import java.util.Set;

/**
 * Who may use an endpoint that answers without JAX-RS (the chat completions servlet): the checks and answers of
 * {@code @RolesAllowed} with {@link AuthenticationRequiredFeature} and {@link ApiKeyFilter}, in one call, so such an
 * endpoint refuses exactly as every JAX-RS one does.
 */
@ApplicationScoped
public class CallerAdmission {

    @Inject
    ApiKeyCheck apiKeyCheck;

    @Inject
    TokenRefusalReason refusalReason;

    /**
     * The refusal for this caller, or null when it may go on: 401 without a token or with the reason MicroProfile JWT
     * refused the one sent ({@link TokenRefusalReason}), 403 without one of {@code roles}, 401 for an API key that is revoked or unknown here (looked up last,
     * only for callers otherwise admitted).
     */
    public Response refusal(HttpServletRequest request, CurrentUser caller, Set<String> roles) {
        if (!caller.isAuthenticated()) {
            return refusalReason.of(request.getHeader("Authorization")).response();
        }
        if (caller.roles().stream().noneMatch(roles::contains)) {
            return SecurityErrors.roleMissing(roles);
        }
        if (apiKeyCheck.rejects(caller)) {
            return SecurityErrors.apiKeyRevoked();
        }
        return null;
    }

    static String either(Collection<String> roles) {
        return String.join(" or ", roles.stream().sorted().toList());
    }
}
