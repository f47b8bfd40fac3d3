package dev.switchboard.platform;

import jakarta.json.JsonObject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The error body every REST endpoint answers with (the chat API's error shape):
 * {@code {"error":{"message":..., "type":..., "code":...}}}.
 */
public final class ApiError {

    private ApiError() {
    }

    public static JsonObject body(String message, String type, String code) {
        return JSON.createObjectBuilder()
                .add("error", JSON.createObjectBuilder()
                        .add("message", message)
                        .add("type", type)
                        .add("code", code))
                .build();
    }

    public static Response response(Response.StatusType status, String message, String type, String code) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body(message, type, code)).build();
    }

    public static Response badRequest(String message, String code) {
        return response(Response.Status.BAD_REQUEST, message, "invalid_request_error", code);
    }

    public static Response notFound(String message) {
        return response(Response.Status.NOT_FOUND, message, "not_found_error", "not_found");
    }
}
