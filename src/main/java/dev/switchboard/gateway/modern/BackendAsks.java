package dev.switchboard.gateway.modern;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpErrorCodes;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.RequestMeta;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * What session-era backends asked of a stateless request's client while serving it ({@code sampling/createMessage},
 * {@code elicitation/create}, {@code roots/list}). Such a client cannot be sent a request; 2026-07-28 would ask it
 * through an {@code input_required} result, which the gateway does not build yet. So the backend's question is
 * refused at once (the backend is never left waiting) and the client's answer says why instead of what the backend
 * made of the refusal: {@code MissingRequiredClientCapability} when the client did not declare the capability the
 * question needs, {@link ModernErrorCodes#CLIENT_INPUT_NOT_BRIDGED} when it did.
 */
final class BackendAsks implements ServerRequestHandler {

    private static final Map<String, String> CAPABILITY_OF = Map.of("sampling/createMessage", "sampling",
            "elicitation/create", "elicitation", "roots/list", "roots");

    private final Set<String> asked = ConcurrentHashMap.newKeySet();

    @Override
    public CompletableFuture<JsonObject> handle(String method, JsonObject params) {
        asked.add(method);
        return CompletableFuture.failedFuture(McpException.rpcError(GatewayErrors.METHOD_NOT_FOUND, "Method not found: "
                + method + " cannot reach a client of MCP 2026-07-28 through this gateway yet", null));
    }

    /** The answer the client gets instead of the backend's, once a backend asked something; empty when none did. */
    Optional<JsonRpcMessage> answerInstead(JsonValue id, RequestMeta meta) {
        if (asked.isEmpty()) {
            return Optional.empty();
        }
        var missing = JSON.createObjectBuilder();
        asked.stream().map(CAPABILITY_OF::get).filter(c -> c != null && !meta.declares(c)).distinct().sorted()
                .forEach(capability -> missing.add(capability, JsonValue.EMPTY_JSON_OBJECT));
        JsonObject required = missing.build();
        if (!required.isEmpty()) {
            return Optional.of(GatewayErrors.error(id, McpErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Missing required client capability: serving this request needs " + String.join(", ", required.keySet()),
                    JSON.createObjectBuilder().add("requiredCapabilities", required).build()));
        }
        return Optional.of(GatewayErrors.error(id, ModernErrorCodes.CLIENT_INPUT_NOT_BRIDGED, "A backend asked the client "
                + String.join(", ", asked.stream().sorted().toList()) + " while serving this request; the gateway cannot pass "
                + "that to an MCP 2026-07-28 client yet (see docs/known-limits.md)", JSON.createObjectBuilder()
                .add("asked", JSON.createArrayBuilder(asked.stream().sorted().toList())).build()));
    }
}
