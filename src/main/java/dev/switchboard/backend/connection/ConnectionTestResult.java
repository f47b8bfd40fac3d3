package dev.switchboard.backend.connection;

import dev.switchboard.mcp.McpException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * What {@code POST /api/mcp-servers/{id}/connect} answers: on success the server's identity, the negotiated
 * protocol version, its tool count and the round-trip time; on failure what failed, in words and as a kind.
 */
public record ConnectionTestResult(boolean success, String protocolVersion, JsonObject serverInfo,
                                   JsonObject capabilities, int toolCount, long latencyMs,
                                   McpException.Kind errorKind, String errorMessage, int httpStatus) {

    public static ConnectionTestResult ok(String protocolVersion, JsonObject serverInfo, JsonObject capabilities,
                                          int toolCount, long latencyMs) {
        return new ConnectionTestResult(true, protocolVersion, serverInfo, capabilities, toolCount, latencyMs,
                null, null, 0);
    }

    public static ConnectionTestResult failed(McpException e, long latencyMs) {
        return new ConnectionTestResult(false, null, null, null, 0, latencyMs, e.kind(), e.getMessage(), e.httpStatus());
    }

    public JsonObjectBuilder toJson() {
        JsonObjectBuilder json = JSON.createObjectBuilder().add("success", success).add("latencyMs", latencyMs);
        if (success) {
            return json.add("protocolVersion", protocolVersion)
                    .add("serverInfo", serverInfo == null ? JsonValue.EMPTY_JSON_OBJECT : serverInfo)
                    .add("capabilities", capabilities == null ? JsonValue.EMPTY_JSON_OBJECT : capabilities)
                    .add("toolCount", toolCount);
        }
        JsonObjectBuilder error = JSON.createObjectBuilder()
                .add("kind", errorKind.name().toLowerCase())
                .add("message", errorMessage == null ? errorKind.name() : errorMessage);
        if (httpStatus > 0) {
            error.add("httpStatus", httpStatus);
        }
        return json.add("error", error);
    }
}
