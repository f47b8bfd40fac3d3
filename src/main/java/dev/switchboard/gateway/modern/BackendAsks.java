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
 * What session-era backends ask of a stateless request's client while serving it ({@code sampling/createMessage},
 * {@code elicitation/create}, {@code roots/list}). Such a client cannot be sent a request; 2026-07-28 asks it through
 * an {@code input_required} result instead. So, for {@code tools/call}, {@code prompts/get} and
 * {@code resources/read} (the requests that era lets answer {@code input_required}), a question whose capability the
 * client declared pauses the call ({@link PausedCall}) and waits for the client's retry. Any other question is refused
 * at once (the backend is never left waiting) and the client's answer says why instead of what the backend made of the
 * refusal: {@code MissingRequiredClientCapability} when the client did not declare the capability the question needs,
 * {@link ModernErrorCodes#CLIENT_INPUT_NOT_BRIDGED} when it did but the question cannot be passed on (another request,
 * or this member holds as many paused calls as it may).
 */
final class BackendAsks implements ServerRequestHandler {

    private static final Map<String, String> CAPABILITY_OF = Map.of("sampling/createMessage", "sampling",
            "elicitation/create", "elicitation", "roots/list", "roots");

    private final RequestMeta meta;
    private final PausedCall call;
    private final PausedCalls paused;
    private final Set<String> refused = ConcurrentHashMap.newKeySet();

    /** Refuses every question: the request cannot answer {@code input_required}. */
    BackendAsks(RequestMeta meta) {
        this(meta, null, null);
    }

    /** Passes the questions the client can answer to {@code call}, paused in {@code paused}. */
    BackendAsks(RequestMeta meta, PausedCall call, PausedCalls paused) {
        this.meta = meta;
        this.call = call;
        this.paused = paused;
    }

    @Override
    public CompletableFuture<JsonObject> handle(String method, JsonObject params) {
        String capability = CAPABILITY_OF.get(method);
        if (call != null && capability != null && meta.declares(capability) && paused.pause(call)) {
            return call.ask(method, params, paused.timeout());
        }
        refused.add(method);
        return CompletableFuture.failedFuture(McpException.rpcError(GatewayErrors.METHOD_NOT_FOUND, "Method not found: "
                + method + " cannot reach this MCP 2026-07-28 client through the gateway", null));
    }

    /** The answer the client gets instead of the backend's, once a question was refused; empty when none was. */
    Optional<JsonRpcMessage> answerInstead(JsonValue id) {
        if (refused.isEmpty()) {
            return Optional.empty();
        }
        var missing = JSON.createObjectBuilder();
        refused.stream().map(CAPABILITY_OF::get).filter(c -> c != null && !meta.declares(c)).distinct().sorted()
                .forEach(capability -> missing.add(capability, JsonValue.EMPTY_JSON_OBJECT));
        JsonObject required = missing.build();
        if (!required.isEmpty()) {
            return Optional.of(GatewayErrors.error(id, McpErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Missing required client capability: serving this request needs " + String.join(", ", required.keySet()),
                    JSON.createObjectBuilder().add("requiredCapabilities", required).build()));
        }
        return Optional.of(GatewayErrors.error(id, ModernErrorCodes.CLIENT_INPUT_NOT_BRIDGED, "A backend asked the client "
                + String.join(", ", refused.stream().sorted().toList()) + " while serving this request; the gateway passes "
                + "such questions on only while serving tools/call, prompts/get or resources/read, and at most "
                + "switchboard.gateway.input-required.max-paused at a time", JSON.createObjectBuilder()
                .add("asked", JSON.createArrayBuilder(refused.stream().sorted().toList())).build()));
    }
}
