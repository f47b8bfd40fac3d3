package dev.switchboard.security;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;

/**
 * What a request that MicroProfile JWT refused for its bearer token is answered with ({@link TokenRefusalReason}):
 * its own code and words for each reason, never the token itself.
 */
public record TokenRefusal(int status, String type, String code, String message) {

    /** No bearer token at all. */
    static TokenRefusal missing() {
        return unauthorized("authentication_required",
                "Authentication required: send a token or an API key as 'Authorization: Bearer ...'");
    }

    /** A token that verifies here but was refused all the same (no reason this server can name). */
    static TokenRefusal unexplained() {
        return unauthorized("token_refused", "The bearer token was refused");
    }

    static TokenRefusal of(TokenRefused refused) {
        String detail = refused.getMessage();
        return switch (refused.reason()) {
            case MALFORMED, CRITICAL_HEADER, MISSING_EXPIRY, MISSING_SUBJECT ->
                    unauthorized("token_malformed", "The bearer token is malformed: " + detail);
            case ALGORITHM -> unauthorized("token_algorithm_refused", "The bearer token is refused: " + detail
                    + " (tokens must be signed with RS256)");
            case SIGNATURE -> unauthorized("token_signature_invalid",
                    "The bearer token's signature does not verify: it was changed, or signed by another key");
            case UNKNOWN_KEY -> unauthorized("token_unknown_key",
                    "The bearer token is signed by a key its issuer does not publish (kid unknown)");
            case ISSUER -> unauthorized("token_wrong_issuer", "The bearer token is from another issuer: " + detail);
            case AUDIENCE -> unauthorized("token_wrong_audience", "The bearer token is meant for another audience: " + detail);
            case EXPIRED -> unauthorized("token_expired", "The bearer token expired"
                    + (refused.expiresAt() == null ? "" : " at " + refused.expiresAt()) + ": sign in again, or use another API key");
            case NOT_YET_VALID -> unauthorized("token_not_yet_valid", "The bearer token is not valid yet (nbf): " + detail);
            case API_KEY_REVOKED -> unauthorized("api_key_revoked", "API key revoked (or not known to this server)");
            case USER_NOT_ACTIVE -> unauthorized("user_not_active", "The user of this token no longer exists or is disabled");
            case KEYS_UNAVAILABLE -> new TokenRefusal(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "server_error",
                    "token_keys_unavailable", "The issuer's keys cannot be read to check the bearer token; try again");
        };
    }

    private static TokenRefusal unauthorized(String code, String message) {
        return new TokenRefusal(HttpServletResponse.SC_UNAUTHORIZED, SecurityErrors.AUTHENTICATION, code, message);
    }

    /** The RFC 6750 challenge, with the same words as the body; without a token, only the realm. */
    /** The {@code error} parameters of the challenge, empty for a request that brought no token. */
    public String challengeError() {
        return code.equals("authentication_required") ? ""
                : "error=\"invalid_token\", error_description=\"" + message.replace('"', '\'') + "\"";
    }

    public String challenge() {
        if (code.equals("authentication_required")) {
            return "Bearer realm=\"switchboard\"";
        }
        return "Bearer realm=\"switchboard\", error=\"invalid_token\", error_description=\"" + message.replace('"', '\'') + "\"";
    }

    /** The REST API's answer: the error shape, with the challenge. */
    public Response response() {
        return Response.fromResponse(SecurityErrors.error(Response.Status.fromStatusCode(status), type, code, message))
                .header("WWW-Authenticate", challenge()).build();
    }
}
