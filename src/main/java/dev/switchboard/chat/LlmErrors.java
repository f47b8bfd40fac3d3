package dev.switchboard.chat;

import dev.switchboard.llm.LlmException;
import dev.switchboard.platform.ApiError;
import dev.switchboard.platform.ApiException;
import jakarta.json.JsonObject;
import jakarta.ws.rs.core.Response;

/** How a provider failure reaches the caller: 502 or 504 in the chat API's error shape, with a code per cause. */
final class LlmErrors {

    private static final String TYPE = "llm_error";

    private LlmErrors() {
    }

    static ApiException toApi(LlmException e) {
        Response.Status status = e.kind() == LlmException.Kind.TIMEOUT ? Response.Status.GATEWAY_TIMEOUT : Response.Status.BAD_GATEWAY;
        return new ApiException(status, TYPE, code(e), e.getMessage());
    }

    /** The same error as an object, for a stream that has already begun. */
    static JsonObject body(LlmException e) {
        return ApiError.body(e.getMessage(), TYPE, code(e));
    }

    private static String code(LlmException e) {
        return switch (e.kind()) {
            case UNAVAILABLE -> "llm_unavailable";
            case TIMEOUT -> "llm_timeout";
            case REJECTED -> "llm_rejected";
            case FAILED -> "llm_failed";
            case MALFORMED -> "llm_malformed";
        };
    }
}
