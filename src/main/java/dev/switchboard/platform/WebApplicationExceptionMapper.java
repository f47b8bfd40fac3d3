package dev.switchboard.platform;

import jakarta.json.JsonException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotAuthorizedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Gives JAX-RS's own errors (404, 405, 415, bad JSON, ...) the same body shape as ours. */
@Provider
public class WebApplicationExceptionMapper implements ExceptionMapper<WebApplicationException> {

    /** The JSON-P failure behind a body that could not be read, however the provider wrapped it. */
    private static Throwable jsonCause(Throwable e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof JsonException || t instanceof java.util.NoSuchElementException) {
                return t;
            }
        }
        return null;
    }

    @Override
    public Response toResponse(WebApplicationException e) {
        Response original = e.getResponse();
        int status = original.getStatus();
        Throwable jsonProblem = jsonCause(e);
        if (status == 400 && jsonProblem != null) {
            return ApiError.badRequest("Malformed JSON: " + jsonProblem.getMessage(), "invalid_json");
        }
        Response.Status known = Response.Status.fromStatusCode(status);
        String reason = known != null ? known.getReasonPhrase() : "HTTP " + status;
        String type = switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            default -> status >= 500 ? "server_error" : "invalid_request_error";
        };
        Response.ResponseBuilder builder = Response.status(status).entity(ApiError.body(reason, type, reason.toLowerCase().replace(' ', '_')))
                .type("application/json");
        if (e instanceof NotAllowedException) {
            builder.allow(original.getAllowedMethods());
        }
        if (e instanceof NotAuthorizedException) {
            builder.header("WWW-Authenticate", "Bearer");
        }
        return builder.build();
    }
}
