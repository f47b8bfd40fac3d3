package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Writes whole (non-streamed) answers of the MCP endpoint. */
final class HttpReplies {

    private HttpReplies() {
    }

    static void json(HttpServletResponse response, int status, JsonRpcMessage message) throws IOException {
        byte[] body = message.toJson().getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** An HTTP-level refusal; the body is a JSON-RPC error without id, as the transport spec shows them. */
    static void error(HttpServletResponse response, int status, int code, String message, JsonValue data) throws IOException {
        json(response, status, GatewayErrors.error(JsonValue.NULL, code, message, data));
    }

    static void error(HttpServletResponse response, int status, int code, String message) throws IOException {
        error(response, status, code, message, null);
    }
}
