package dev.switchboard.security;

import dev.switchboard.platform.BodyFields;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Login with a local user, the built-in issuer's public key, and "who am I". */
@Path("auth")
@Produces(MediaType.APPLICATION_JSON)
public class AuthResource {

    /** The fields of the OAuth 2.0 password grant, sent as JSON. */
    private static final Set<String> TOKEN_FIELDS = Set.of("grant_type", "username", "password");

    @Inject
    LocalLogin login;

    @Inject
    JwtIssuer issuer;

    @Inject
    SigningKeys keys;

    @Inject
    CurrentUser currentUser;

    @Context
    HttpServletRequest request;

    @POST
    @Path("token")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    public Response token(JsonObject body) {
        BodyFields fields = BodyFields.of(body, TOKEN_FIELDS);
        String grantType = fields.string("grant_type");
        if (grantType != null && !grantType.equals("password")) {
            return SecurityErrors.badRequest("unsupported_grant_type", "grant_type must be password");
        }
        return token(fields.requiredString("username"), fields.requiredString("password"));
    }

    /** The OAuth 2.0 resource owner password form, for clients that only speak that. */
    @POST
    @Path("token")
    @PermitAll
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response tokenForm(@FormParam("grant_type") String grantType, @FormParam("username") String username,
                              @FormParam("password") String password) {
        if (grantType != null && !grantType.equals("password")) {
            return SecurityErrors.badRequest("unsupported_grant_type", "grant_type must be password");
        }
        return token(username, password);
    }

    private Response token(String username, String password) {
        if (username == null || username.isEmpty() || password == null || password.isEmpty()) {
            return SecurityErrors.badRequest("missing_credentials", "username and password are required");
        }
        LocalLogin.Outcome outcome = login.authenticate(username, password, request.getRemoteAddr());
        if (outcome instanceof LocalLogin.Accepted accepted) {
            IssuedToken token = issuer.accessToken(accepted.who());
            CacheControl noStore = new CacheControl();
            noStore.setNoStore(true);
            return Response.ok(JSON.createObjectBuilder()
                            .add("access_token", token.token())
                            .add("token_type", "Bearer")
                            .add("expires_in", Duration.between(token.issuedAt(), token.expiresAt()).toSeconds())
                            .build())
                    .cacheControl(noStore)
                    .build();
        }
        if (outcome instanceof LocalLogin.Throttled throttled) {
            // one answer for a delay and a lock, for existing and unknown names alike
            long seconds = Math.max(1, (throttled.retryAfter().toMillis() + 999) / 1000);
            return Response.fromResponse(SecurityErrors.error(Response.Status.TOO_MANY_REQUESTS, SecurityErrors.RATE_LIMIT,
                            "too_many_attempts", "Too many failed sign-ins for this account or from this address: try again in "
                                    + seconds + " s, or ask an administrator to unlock the account"))
                    .header("Retry-After", seconds)
                    .build();
        }
        return SecurityErrors.unauthorized("invalid_credentials", "Invalid username or password",
                "Bearer realm=\"switchboard\"");
    }

    /** Fetched by Liberty's mpJwt (and {@link TokenRefusalReason}) over loopback to verify tokens, and by anyone else who wants to. */
    @GET
    @Path("jwks")
    @PermitAll
    public JsonObject jwks() {
        return keys.jwks();
    }

    @GET
    @Path("me")
    @RolesAllowed({"admin", "user"})
    public JsonObject me() {
        JsonArrayBuilder roles = JSON.createArrayBuilder();
        new TreeSet<>(currentUser.roles()).forEach(roles::add);
        return JSON.createObjectBuilder()
                .add("subject", currentUser.subject())
                .add("tenant", currentUser.tenant())
                .add("roles", roles)
                .add("tokenUse", currentUser.tokenUse())
                .build();
    }
}
