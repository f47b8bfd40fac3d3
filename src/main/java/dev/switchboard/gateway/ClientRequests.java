package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The requests backends make of one client ({@code sampling/createMessage}, {@code elicitation/create},
 * {@code roots/list}) while serving its requests. Each goes out under an id of the gateway's own (backend ids of
 * different backends would collide), naming the member that holds it ({@link ClientRequestIds}), and the client's
 * response is matched back by it within this session only; the backend's own id is kept
 * by its JSON-RPC peer, which answers the backend. A method the client declared no capability for is refused here,
 * as the client would.
 */
public final class ClientRequests {

    private static final Map<String, String> CAPABILITY_OF = Map.of("sampling/createMessage", "sampling",
            "elicitation/create", "elicitation", "roots/list", "roots");

    private final String member;
    private final Map<String, CompletableFuture<JsonObject>> awaiting = new ConcurrentHashMap<>();
    private volatile JsonObject clientCapabilities = JsonValue.EMPTY_JSON_OBJECT;

    /** @param member this instance's name in request ids ({@link ClientMessageRoute#member()}) */
    ClientRequests(String member) {
        this.member = member;
    }

    /** What the client declared in its {@code initialize}. */
    public void clientCapabilities(JsonObject capabilities) {
        clientCapabilities = capabilities == null ? JsonValue.EMPTY_JSON_OBJECT : capabilities;
    }

    /** Whether the client declared the capability this method of a backend needs. */
    public boolean offers(String method) {
        String capability = CAPABILITY_OF.get(method);
        return capability != null && clientCapabilities.get(capability) instanceof JsonObject;
    }

    /**
     * A handler that sends the backend's requests to the client over {@code channel} and waits at most
     * {@code timeout} for the answer.
     */
    public ServerRequestHandler over(Consumer<JsonRpcMessage> channel, Duration timeout) {
        return (method, params) -> {
            if (!offers(method)) {
                return CompletableFuture.failedFuture(McpException.rpcError(GatewayErrors.METHOD_NOT_FOUND,
                        "Method not found: the client does not offer " + method, null));
            }
            String id = ClientRequestIds.next(member);
            CompletableFuture<JsonObject> answer = new CompletableFuture<>();
            awaiting.put(id, answer);
            answer.whenComplete((result, error) -> awaiting.remove(id));
            answer.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
            channel.accept(JsonRpcMessage.request(JSON.createValue(id), method, params));
            return answer;
        };
    }

    /** Matches a response the client sent; false when nothing waits for it (late, or never asked). */
    public boolean answer(JsonRpcMessage response) {
        String id = response.json().get("id") instanceof JsonString s ? s.getString() : null;
        CompletableFuture<JsonObject> waiting = id == null ? null : awaiting.get(id);
        if (waiting == null) {
            return false;
        }
        JsonObject json = response.json();
        if (json.get("error") instanceof JsonObject error) {
            int code = error.get("code") instanceof JsonNumber n ? n.intValue() : GatewayErrors.INTERNAL_ERROR;
            waiting.completeExceptionally(McpException.rpcError(code, error.getString("message", "error " + code),
                    error.get("data")));
        } else {
            waiting.complete(json.get("result") instanceof JsonObject result ? result : JsonValue.EMPTY_JSON_OBJECT);
        }
        return true;
    }

    /** The session ended: nobody will answer. */
    void abandonAll() {
        for (CompletableFuture<JsonObject> waiting : List.copyOf(awaiting.values())) {
            waiting.completeExceptionally(new McpException(McpException.Kind.CLOSED, "the client's session ended"));
        }
    }
}
