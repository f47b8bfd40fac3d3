package dev.switchboard.security;

import dev.switchboard.platform.ApiError;
import jakarta.json.JsonObject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** The REST error shape {@code {"error":{"message","type","code"}}} for this room's answers. */
final class SecurityErrors {

    static final String AUTHENTICATION = "authentication_error";
    static final String PERMISSION = "permission_error";
    static final String INVALID_REQUEST = "invalid_request_error";
    static final String NOT_FOUND = "not_found_error";
    static final String CONFLICT = "conflict_error";
    static final String RATE_LIMIT = "rate_limit_error";

    private SecurityErrors() {
    }

    static Response error(Response.Status status, String type, String code, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body(type, code, message)).build();
    }

    static JsonObject body(String type, String code, String message) {
        return ApiError.body(message, type, code);
    }

    /** @param challenge the WWW-Authenticate value (RFC 6750) */
    static Response unauthorized(String code, String message, String challenge) {
        return Response.fromResponse(error(Response.Status.UNAUTHORIZED, AUTHENTICATION, code, message))
                .header("WWW-Authenticate", challenge)
                .build();
    }

    static Response apiKeyRevoked() {
        return unauthorized("api_key_revoked", "API key revoked (or not known to this server)",
                "Bearer realm=\"switchboard\", error=\"invalid_token\"");
    }

    /** A caller without any of the roles an endpoint needs; the code is the one JAX-RS's own refusal maps to. */
    static Response roleMissing(java.util.Collection<String> roles) {
        return error(Response.Status.FORBIDDEN, PERMISSION, "forbidden",
                "Insufficient role: this needs the role " + CallerAdmission.either(roles));
    }

    static Response badRequest(String code, String message) {
        return error(Response.Status.BAD_REQUEST, INVALID_REQUEST, code, message);
    }

    /** For a body that parsed as JSON but is an array, string or number where an object is required. */
    static Response notAnObject() {
        return badRequest("invalid_json", "The body must be a JSON object");
    }

    static Response notFound(String code, String message) {
        return error(Response.Status.NOT_FOUND, NOT_FOUND, code, message);
    }
}
