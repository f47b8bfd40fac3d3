package dev.switchboard.mcp.client;

import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ModernProtocol;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * A backend that speaks MCP 2026-07-28 (the stateless era), behind the same face as a session's
 * ({@link McpClient}): no handshake and no session; every request carries the version and this client's capabilities
 * in {@code _meta}; a result {@code input_required} is answered by asking the caller's client each embedded request
 * (through the {@link ServerRequestHandler} the caller gave, which may be a session-era client's ordinary
 * server-to-client requests, or another 2026-07-28 client's own {@code input_required}) and retrying the request with
 * {@code inputResponses} and the backend's {@code requestState}. The era has no notifications outside a request
 * without {@code subscriptions/listen}, which this client does not open: list changes are seen when lists are read
 * again.
 */
public final class StatelessMcpClient implements McpClient {

    /** Rounds of {@code input_required} one request may take before the backend is deemed to loop. */
    static final int MAX_INPUT_ROUNDS = 10;
    private static final String INPUT_REQUIRED = "input_required";
    /** What a caller that can answer the backend's questions can do: they are asked of its own client. */
    private static final JsonObject ANSWERING = JSON.createObjectBuilder().add("sampling", JsonValue.EMPTY_JSON_OBJECT)
            .add("elicitation", JsonValue.EMPTY_JSON_OBJECT).add("roots", JsonValue.EMPTY_JSON_OBJECT).build();

    private final JsonRpcPeer peer;
    private final InitializeResult discovered;

    private StatelessMcpClient(JsonRpcPeer peer, InitializeResult discovered) {
        this.peer = peer;
        this.discovered = discovered;
    }

    /**
     * Asks the backend {@code server/discover}; a client when it serves 2026-07-28, empty when it answers anything
     * else (a session-era backend).
     */
    static Optional<McpClient> discover(JsonRpcPeer peer, Duration timeout) {
        JsonObject result;
        try {
            result = peer.request(ModernProtocol.DISCOVER, withMeta(JsonValue.EMPTY_JSON_OBJECT, JsonValue.EMPTY_JSON_OBJECT),
                    timeout, null);
        } catch (McpException e) {
            return Optional.empty();
        }
        if (!(result.get("supportedVersions") instanceof JsonArray versions)
                || versions.stream().noneMatch(v -> v instanceof JsonString s && ModernProtocol.VERSION.equals(s.getString()))) {
            return Optional.empty();
        }
        JsonObject meta = result.get("_meta") instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject serverInfo = meta.get(ModernProtocol.SERVER_INFO_KEY) instanceof JsonObject info ? info : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject capabilities = result.get("capabilities") instanceof JsonObject c ? c : JsonValue.EMPTY_JSON_OBJECT;
        String instructions = result.get("instructions") instanceof JsonString s ? s.getString() : null;
        return Optional.of(new StatelessMcpClient(peer, new InitializeResult(ModernProtocol.VERSION, serverInfo, capabilities,
                instructions, result)));
    }

    @Override
    public InitializeResult initializeResult() {
        return discovered;
    }

    @Override
    public List<JsonObject> listTools(Duration timeout) throws McpException {
        return ToolPages.all((params, left) -> request("tools/list", params, left, null, null), timeout);
    }

    @Override
    public JsonObject callTool(String name, JsonObject arguments, Duration timeout, Consumer<JsonObject> progress)
            throws McpException {
        return request("tools/call", JSON.createObjectBuilder().add("name", name)
                .add("arguments", arguments == null ? JsonValue.EMPTY_JSON_OBJECT : arguments).build(), timeout, progress, null);
    }

    /** The request, and its retries while the backend answers {@code input_required}. */
    @Override
    public JsonObject request(String method, JsonObject params, Duration timeout, Consumer<JsonObject> progress,
                              ServerRequestHandler serverRequests) throws McpException {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonObject capabilities = serverRequests == null ? JsonValue.EMPTY_JSON_OBJECT : ANSWERING;
        JsonObject sent = withMeta(params, capabilities);
        for (int round = 0; round < MAX_INPUT_ROUNDS; round++) {
            JsonObject result = peer.request(method, sent, left(deadline), progress);
            if (!(result.get(ModernProtocol.RESULT_TYPE) instanceof JsonString type) || !INPUT_REQUIRED.equals(type.getString())) {
                // the result type belongs to this hop: a stateless client of the gateway gets the gateway's own
                return JSON.createObjectBuilder(result).remove(ModernProtocol.RESULT_TYPE).build();
            }
            JsonObjectBuilder retry = JSON.createObjectBuilder(sent).add("inputResponses", answers(method, result, serverRequests, deadline));
            retry.remove("requestState");
            if (result.get("requestState") instanceof JsonString state) {
                retry.add("requestState", state);
            }
            sent = retry.build();
        }
        throw McpException.rpcError(-32603, "The backend asked for input " + MAX_INPUT_ROUNDS + " times while serving "
                + method + " and never finished", null);
    }

    /** The caller's client's answers to each request embedded in an {@code input_required} result, by key. */
    private static JsonObject answers(String method, JsonObject inputRequired, ServerRequestHandler serverRequests,
                                      long deadline) throws McpException {
        JsonObject asked = inputRequired.get("inputRequests") instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
        if (!asked.isEmpty() && serverRequests == null) {
            throw McpException.rpcError(-32603, "The backend asked for input (" + String.join(", ", asked.keySet())
                    + ") while serving " + method + ", and nobody can answer it here", null);
        }
        JsonObjectBuilder answers = JSON.createObjectBuilder();
        for (var question : asked.entrySet()) {
            if (!(question.getValue() instanceof JsonObject request) || !(request.get("method") instanceof JsonString asking)) {
                throw new McpException(McpException.Kind.PROTOCOL, "input_required names no method under '" + question.getKey() + "'");
            }
            JsonObject questionParams = request.get("params") instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
            answers.add(question.getKey(), await(serverRequests.handle(asking.getString(), questionParams), deadline));
        }
        return answers.build();
    }

    private static JsonObject await(java.util.concurrent.CompletableFuture<JsonObject> answer, long deadline) throws McpException {
        try {
            return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new McpException(McpException.Kind.CANCELLED, "cancelled while the client was asked for input");
        } catch (TimeoutException e) {
            throw new McpException(McpException.Kind.TIMEOUT, "the client did not answer the backend's question in time");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof McpException refused) {
                throw refused;
            }
            throw new McpException(McpException.Kind.PROTOCOL, "the client's answer failed: " + e.getCause(), e.getCause());
        }
    }

    /** {@code params} with the era's {@code _meta}: the version and what this client can do for this request. */
    private static JsonObject withMeta(JsonObject params, JsonObject capabilities) {
        JsonObjectBuilder meta = params.get("_meta") instanceof JsonObject existing
                ? JSON.createObjectBuilder(existing) : JSON.createObjectBuilder();
        meta.add(ModernProtocol.PROTOCOL_VERSION_KEY, ModernProtocol.VERSION)
                .add(ModernProtocol.CLIENT_CAPABILITIES_KEY, capabilities)
                .add(ModernProtocol.CLIENT_INFO_KEY, JSON.createObjectBuilder().add("name", DefaultMcpConnector.CLIENT_NAME)
                        .add("version", DefaultMcpConnector.CLIENT_VERSION));
        return JSON.createObjectBuilder(params).add("_meta", meta).build();
    }

    /** The era has no {@code ping}: {@code server/discover} is the cheapest request that proves the backend answers. */
    @Override
    public void ping(Duration timeout) throws McpException {
        request(ModernProtocol.DISCOVER, JsonValue.EMPTY_JSON_OBJECT, timeout, null, null);
    }

    /** Never called: without {@code subscriptions/listen} the era sends no list changes. */
    @Override
    public void onToolsListChanged(Runnable listener) {
        // nothing arrives outside a request
    }

    /** Only notifications that belong to a request (progress) arrive; none is routed by method. */
    @Override
    public void onNotification(String method, Consumer<JsonObject> listener) {
        peer.onNotification(method, listener);
    }

    @Override
    public void onConnectionLost(Consumer<Throwable> listener) {
        peer.onConnectionLost(listener::accept);
    }

    /** The era defines no client notification over HTTP (closing a request's stream cancels it): nothing is sent. */
    @Override
    public void notify(String method, JsonObject params) {
        // nothing to send
    }

    /** The era has no requests from the backend outside a call. */
    @Override
    public void onServerRequestOutsideCalls(Function<String, ServerRequestHandler> finder) {
        // never asked
    }

    @Override
    public boolean isOpen() {
        return peer.isOpen();
    }

    @Override
    public void close() {
        peer.close();
    }

    private static Duration left(long deadline) throws McpException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new McpException(McpException.Kind.TIMEOUT, "deadline passed between rounds of the request");
        }
        return Duration.ofNanos(left);
    }
}
