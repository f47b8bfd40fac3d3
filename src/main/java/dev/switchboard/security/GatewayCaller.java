package dev.switchboard.security;

import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;

import java.util.Set;

/**
 * The caller of an MCP gateway request: the token's or API key's identity like everywhere else, or, when an
 * administrator switched on anonymous MCP for local development ({@link AnonymousMcp}), a fixed
 * low-privilege principal for callers without a token: subject {@value #ANONYMOUS_SUBJECT} (no local user can have
 * that name), role {@code user}, the default tenant and its policy. The REST API never sees this principal. A
 * request-scoped {@link CurrentUser} of its own rather than a {@link CallerIdentity}: it decides, per request, who
 * the caller is; what outlives the request copies it into a {@link CallerIdentity}.
 */
@RequestScoped
@Typed(GatewayCaller.class)
public class GatewayCaller extends CurrentUser {

    public static final String ANONYMOUS_SUBJECT = "(anonymous)";
    public static final String ANONYMOUS_CLIENT = "anonymous";

    @Inject
    HttpServletRequest request;

    @Inject
    AnonymousMcp anonymousMcp;

    private Boolean anonymous;

    /** True when this request is served as the anonymous principal. */
    public boolean isAnonymous() {
        if (anonymous == null) {
            // the switch first: with it off (the default) the servlet request is never touched
            anonymous = anonymousMcp.isEnabled() && !super.isAuthenticated() && !hasCredentials()
                    && anonymousMcp.admits(request.getRemoteAddr());
        }
        return anonymous;
    }

    @Override
    public boolean isAuthenticated() {
        return isAnonymous() || super.isAuthenticated();
    }

    @Override
    public String subject() {
        return isAnonymous() ? ANONYMOUS_SUBJECT : super.subject();
    }

    @Override
    public String tenant() {
        return isAnonymous() ? defaultTenant.id() : super.tenant();
    }

    @Override
    public Set<String> roles() {
        return isAnonymous() ? Set.of(Role.USER.claim()) : super.roles();
    }

    @Override
    public String tokenUse() {
        return isAnonymous() ? TOKEN_USE_ACCESS : super.tokenUse();
    }

    @Override
    public String clientId() {
        return isAnonymous() ? ANONYMOUS_CLIENT : super.clientId();
    }

    @Override
    String rawToken() {
        return isAnonymous() ? null : super.rawToken();
    }

    /** A request that brought credentials is judged by them: a bad token stays a 401, never becomes anonymous. */
    private boolean hasCredentials() {
        return request.getHeader("Authorization") != null;
    }
}
