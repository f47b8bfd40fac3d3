package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Optional;
import java.util.Set;

/**
 * Whether a client request is one the gateway may hand a backend as it is: a request method the gateway routes, with
 * the params the MCP schema requires of it present and of the right JSON type. The passthrough forwards requests
 * unchanged, so without this check a client could make the gateway send its backend messages the schema forbids; the
 * refusal is the one the backend would give (-32601, -32602), given by the gateway instead.
 */
final class ClientRequestCheck {

    /** The client requests the gateway routes ({@code initialize} is answered before routing). */
    private static final Set<String> ROUTED = Set.of("ping", "tools/list", "tools/call", "resources/list",
            "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe", "prompts/list",
            "prompts/get", "completion/complete", "logging/setLevel");
    private static final Set<String> LEVELS = Set.of("debug", "info", "notice", "warning", "error", "critical", "alert",
            "emergency");

    private ClientRequestCheck() {
    }

    /** The error answering a request that must not be forwarded; empty for one that may. */
    static Optional<JsonRpcMessage> refusal(JsonRpcMessage request) {
        String method = request.method();
        if (!ROUTED.contains(method)) {
            return Optional.of(GatewayErrors.error(request.id(), GatewayErrors.METHOD_NOT_FOUND, "Method not found: " + method, null));
        }
        return paramsProblem(method, request.params()).map(problem -> GatewayErrors.error(request.id(),
                GatewayErrors.INVALID_PARAMS, "Invalid params: " + method + " " + problem, null));
    }

    private static Optional<String> paramsProblem(String method, JsonObject params) {
        return Optional.ofNullable(switch (method) {
            case "tools/call", "prompts/get" -> firstOf(string(params, "name"), optional(params, "arguments", JsonValue.ValueType.OBJECT));
            case "resources/read", "resources/subscribe", "resources/unsubscribe" -> string(params, "uri");
            case "completion/complete" -> completion(params);
            case "logging/setLevel" -> params.get("level") instanceof JsonString level && LEVELS.contains(level.getString())
                    ? null : "needs a 'level', one of " + LEVELS;
            case "ping" -> null;
            default -> optional(params, "cursor", JsonValue.ValueType.STRING);
        });
    }

    private static String completion(JsonObject params) {
        if (!(params.get("ref") instanceof JsonObject ref) || !(ref.get("type") instanceof JsonString)) {
            return "needs a 'ref' object with a 'type'";
        }
        if (!(params.get("argument") instanceof JsonObject argument) || string(argument, "name") != null
                || string(argument, "value") != null) {
            return "needs an 'argument' object with a string 'name' and 'value'";
        }
        return null;
    }

    private static String string(JsonObject params, String name) {
        return params.get(name) instanceof JsonString ? null : "needs a string '" + name + "'";
    }

    private static String optional(JsonObject params, String name, JsonValue.ValueType type) {
        JsonValue value = params.get(name);
        return value == null || value.getValueType() == type ? null
                : "'" + name + "' must be " + (type == JsonValue.ValueType.OBJECT ? "an object" : "a string");
    }

    private static String firstOf(String first, String second) {
        return first != null ? first : second;
    }
}
