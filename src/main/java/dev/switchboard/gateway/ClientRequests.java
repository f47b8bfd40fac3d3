package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    private static final int MAX_URL_ELICITATIONS = 256;

    private final String member;
    private final Map<String, CompletableFuture<JsonObject>> awaiting = new ConcurrentHashMap<>();
    private volatile JsonObject clientCapabilities = JsonValue.EMPTY_JSON_OBJECT;
    /** URL-mode elicitations sent to this client whose completion a backend may announce; the oldest forgotten first. */
    private final Set<String> urlElicitations = Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MAX_URL_ELICITATIONS;
        }
    });

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
     * What the client lacks to be asked this request, in words; empty when it declared everything it needs: the
     * method's capability, and for 2025-11-25's finer kinds {@code elicitation.url} (a URL-mode elicitation; an
     * {@code elicitation} without kinds means forms only), {@code sampling.tools} (sampling with {@code tools} or
     * {@code toolChoice}) and {@code sampling.context} (an {@code includeContext} other than {@code none}). Backends
     * are offered every kind (one pooled backend session serves many clients), so this is where a request the
     * client could not handle is refused, as the client would refuse it.
     */
    public Optional<String> lacks(String method, JsonObject params) {
        if (!offers(method)) {
            return Optional.of(method + " (capability " + CAPABILITY_OF.getOrDefault(method, method) + ")");
        }
        JsonObject declared = clientCapabilities.get(CAPABILITY_OF.get(method)) instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject asked = params == null ? JsonValue.EMPTY_JSON_OBJECT : params;
        if ("elicitation/create".equals(method) && "url".equals(asked.getString("mode", "form"))
                && !(declared.get("url") instanceof JsonObject)) {
            return Optional.of("URL-mode elicitation (capability elicitation.url)");
        }
        if ("elicitation/create".equals(method) && "form".equals(asked.getString("mode", "form"))
                && declared.get("url") instanceof JsonObject && !(declared.get("form") instanceof JsonObject)) {
            return Optional.of("form-mode elicitation (capability elicitation.form)");
        }
        if ("sampling/createMessage".equals(method) && (asked.containsKey("tools") || asked.containsKey("toolChoice"))
                && !(declared.get("tools") instanceof JsonObject)) {
            return Optional.of("sampling with tools (capability sampling.tools)");
        }
        if ("sampling/createMessage".equals(method) && !"none".equals(asked.getString("includeContext", "none"))
                && !(declared.get("context") instanceof JsonObject)) {
            return Optional.of("sampling with includeContext (capability sampling.context)");
        }
        return Optional.empty();
    }

    /**
     * Whether this client was sent the URL-mode elicitation a backend now says is complete
     * ({@code notifications/elicitation/complete}); true once, for the session that is to be told.
     */
    public boolean completes(String elicitationId) {
        synchronized (urlElicitations) {
            return urlElicitations.remove(elicitationId);
        }
    }

    /**
     * A handler that sends the backend's requests to the client over {@code channel} and waits at most
     * {@code timeout} for the answer.
     */
    public ServerRequestHandler over(Consumer<JsonRpcMessage> channel, Duration timeout) {
        return (method, params) -> {
            Optional<String> lacking = lacks(method, params);
            if (lacking.isPresent()) {
                return CompletableFuture.failedFuture(McpException.rpcError(GatewayErrors.METHOD_NOT_FOUND,
                        "Method not found: the client does not offer " + lacking.get(), null));
            }
            if (params != null && "url".equals(params.getString("mode", null)) && params.get("elicitationId") instanceof JsonString elicitation) {
                synchronized (urlElicitations) {
                    urlElicitations.add(elicitation.getString());
                }
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
