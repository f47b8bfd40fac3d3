package dev.switchboard.security;

import dev.switchboard.platform.ApiException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.security.enterprise.SecurityContext;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The caller of the current request as every room sees it: subject (owner of what it creates), tenant,
 * roles, and whether it came with an API key. Tokens of external issuers work the same way; a token
 * without a {@code tenant} claim belongs to the default tenant.
 * <p>
 * The token is taken from the caller's principals rather than by injecting {@link JsonWebToken}: Liberty
 * logs an error for every injected token resolved on a request that came without one (@PermitAll).
 */
@RequestScoped
public class CurrentUser {

    public static final String TOKEN_USE_ACCESS = "access";
    public static final String TOKEN_USE_API_KEY = JwtIssuer.API_KEY_USE;

    @Inject
    SecurityContext securityContext;

    private JsonWebToken jwt;
    private boolean resolved;
    /**
     * The validated token's claims, parsed once from its payload. Claims outside MicroProfile JWT's own set (tenant,
     * token_use, client_id) are read here: Liberty's {@code getClaim} looks every name up in that enum first and
     * builds and catches an exception for each other name, several times per gateway call.
     */
    private JsonObject claims;

    @Inject
    DefaultTenant defaultTenant;

    /** False on @PermitAll requests that came without a token; every other method then answers for nobody. */
    public boolean isAuthenticated() {
        if (!resolved) {
            // Liberty answers null rather than an empty set for an anonymous caller
            Set<JsonWebToken> tokens = securityContext.getCallerPrincipal() == null ? null
                    : securityContext.getPrincipalsByType(JsonWebToken.class);
            jwt = tokens == null ? null : tokens.stream().findFirst().orElse(null);
            resolved = true;
        }
        return jwt != null && jwt.getRawToken() != null;
    }

    /** The token's {@code sub}, falling back to the name MicroProfile JWT derives (upn, preferred_username). */
    public String subject() {
        if (!isAuthenticated()) {
            return null;
        }
        String subject = jwt.getSubject();
        return subject != null ? subject : jwt.getName();
    }

    /** Callers of the default tenant run the platform and may look into every tenant; others only into their own. */
    public boolean seesAllTenants() {
        return defaultTenant.id().equals(tenant());
    }

    /**
     * The tenant a read is scoped to: the caller's own when none is asked for, another one only for a caller who
     * {@link #seesAllTenants() sees all tenants}; {@code what} names the data in the 403 otherwise.
     */
    public String tenantToRead(String requested, String what) {
        if (requested == null || requested.isBlank()) {
            return tenant();
        }
        if (!requested.equals(tenant()) && !seesAllTenants()) {
            throw ApiException.forbidden("tenant_forbidden", "An administrator of tenant " + tenant()
                    + " can only read that tenant's " + what);
        }
        return requested;
    }

    public String tenant() {
        String value = stringClaim(TokenMinter.TENANT_CLAIM);
        return value == null || value.isBlank() ? defaultTenant.id() : value;
    }

    public Set<String> roles() {
        if (!isAuthenticated() || jwt.getGroups() == null) {
            return Set.of();
        }
        return Set.copyOf(jwt.getGroups());
    }

    /**
     * The client application acting for the subject: the token's {@code azp} (OpenID Connect) or {@code client_id}
     * (RFC 9068) claim, {@code api_key:<jti>} for an API key of this server; null when the token names no client.
     */
    public String clientId() {
        if (!isAuthenticated()) {
            return null;
        }
        for (String claim : new String[] {"azp", "client_id"}) {
            String text = stringClaim(claim);
            if (text != null && !text.isBlank()) {
                return text;
            }
        }
        return isApiKey() ? "api_key:" + jwt.getTokenID() : null;
    }

    public boolean isAdmin() {
        return roles().contains(Role.ADMIN.claim());
    }

    public boolean isApiKey() {
        return TOKEN_USE_API_KEY.equals(tokenUse());
    }

    /** {@code "api_key"} for API keys, {@code "access"} for every other token. */
    public String tokenUse() {
        return TOKEN_USE_API_KEY.equals(stringClaim(TokenMinter.TOKEN_USE_CLAIM)) ? TOKEN_USE_API_KEY : TOKEN_USE_ACCESS;
    }

    /** A string claim of the caller's token; null without a token or claim, or when the claim is not a string. */
    private String stringClaim(String name) {
        return claims().get(name) instanceof JsonString value ? value.getString() : null;
    }

    /**
     * The claims of the caller's token (verified by MicroProfile JWT; an empty object for an anonymous caller), for
     * rooms that map claims.
     */
    public JsonObject claims() {
        if (!isAuthenticated()) {
            return JsonObject.EMPTY_JSON_OBJECT;
        }
        if (claims == null) {
            claims = TokenClaims.of(jwt.getRawToken());
        }
        return claims;
    }

    /** The raw bearer token, for the API key check; never log it. */
    String rawToken() {
        return isAuthenticated() ? jwt.getRawToken() : null;
    }

    TokenSubject asTokenSubject() {
        return new TokenSubject(subject(), roles(), tenant());
    }
}
