package dev.switchboard.platform;

import jakarta.ws.rs.core.Response;

/** Thrown by services to end a request with a specific status and {@link ApiError} body. */
public class ApiException extends RuntimeException {

    private final Response.StatusType status;
    private final String type;
    private final String code;

    /** {@code status} may be one {@link Response.Status} lacks, such as 422 Unprocessable Content. */
    public ApiException(Response.StatusType status, String type, String code, String message) {
        super(message);
        this.status = status;
        this.type = type;
        this.code = code;
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(Response.Status.BAD_REQUEST, "invalid_request_error", code, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(Response.Status.NOT_FOUND, "not_found_error", "not_found", message);
    }

    public static ApiException forbidden(String code, String message) {
        return new ApiException(Response.Status.FORBIDDEN, "permission_error", code, message);
    }

    public static ApiException conflict(String code, String message) {
        return new ApiException(Response.Status.CONFLICT, "invalid_request_error", code, message);
    }

    /** The HTTP status the caller gets. */
    public int status() {
        return status.getStatusCode();
    }

    /** The stable code callers act on ({@code missing_field}, {@code not_found}, ...). */
    public String code() {
        return code;
    }

    public Response toResponse() {
        return ApiError.response(status, getMessage(), type, code);
    }
}
