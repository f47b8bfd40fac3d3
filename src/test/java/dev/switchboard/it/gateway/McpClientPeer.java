package dev.switchboard.it.gateway;

import dev.switchboard.testing.McpSchemaValidator.Sender;
import dev.switchboard.testing.WireLog;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw MCP client of the gateway that records every message on the wire, both ways, in a {@link WireLog}: what it
 * sends as it sends it, what the gateway sends as it arrives (JSON bodies, each SSE event, each socket frame). It
 * answers the gateway's requests itself (sampling, elicitation, roots, ping) like a client that declared them.
 * Subclasses carry messages over one transport.
 */
abstract class McpClientPeer implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ELICITATION_SINCE = "2025-06-18";

    final WireLog wire;
    final String requestedVersion;
    private final Map<String, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    /** answers and stream readers run here, never on the thread that delivered a message */
    final ExecutorService workers = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "mcp-client-peer");
        thread.setDaemon(true);
        return thread;
    });
    private volatile String negotiatedVersion;

    McpClientPeer(String edge, String requestedVersion) {
        this.wire = new WireLog(edge);
        this.requestedVersion = requestedVersion;
    }

    /** Carries one message to the gateway; what comes back is handed to {@link #received}. */
    protected abstract void transmit(JsonObject message);

    /** initialize with sampling, elicitation (from this version on) and roots declared, then notifications/initialized; the result. */
    JsonObject initialize() {
        JsonObjectBuilder capabilities = Json.createObjectBuilder().add("sampling", JsonValue.EMPTY_JSON_OBJECT)
                .add("roots", Json.createObjectBuilder().add("listChanged", true));
        if (requestedVersion.compareTo(ELICITATION_SINCE) >= 0) {
            capabilities.add("elicitation", JsonValue.EMPTY_JSON_OBJECT);
        }
        JsonObject response = request("initialize", Json.createObjectBuilder().add("protocolVersion", requestedVersion)
                .add("capabilities", capabilities)
                .add("clientInfo", Json.createObjectBuilder().add("name", "schema-it").add("version", "1.0.0")).build());
        JsonObject result = response.getJsonObject("result");
        negotiatedVersion = result.getString("protocolVersion");
        notify("notifications/initialized", null);
        return result;
    }

    /** The version initialize negotiated. */
    String version() {
        return negotiatedVersion;
    }

    /** Sends a request and waits for its response (the whole message: result or error). */
    JsonObject request(String method, JsonObject params) {
        return await(start(method, params), method);
    }

    /** The result of a request that must succeed. */
    JsonObject result(String method, JsonObject params) {
        JsonObject response = request(method, params);
        if (!response.containsKey("result")) {
            throw new AssertionError(method + " failed: " + response);
        }
        return response.getJsonObject("result");
    }

    /** Sends a request the schema does not allow, to see it refused; the response (an error) is checked. */
    JsonObject requestInvalid(String method, JsonObject params) {
        return await(start(method, params, true), method);
    }

    /** Sends a request; the future completes with its response. */
    Started start(String method, JsonObject params) {
        return start(method, params, false);
    }

    private Started start(String method, JsonObject params, boolean invalidOnPurpose) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonObject> response = new CompletableFuture<>();
        pending.put(Integer.toString(id), response);
        JsonObjectBuilder builder = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", method);
        if (params != null) {
            builder.add("params", params);
        }
        JsonObject message = builder.build();
        if (invalidOnPurpose) {
            wire.addInvalidOnPurpose(Sender.CLIENT, message);
            transmit(message);
        } else {
            send(message);
        }
        return new Started(id, response);
    }

    /** A request on its way. */
    record Started(int id, CompletableFuture<JsonObject> response) {
    }

    JsonObject await(Started started, String what) {
        try {
            return started.response().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no answer to " + what + " within " + WAIT + "; wire so far: " + wire, e);
        } catch (Exception e) {
            throw new AssertionError(what + " failed: " + e, e);
        }
    }

    void notify(String method, JsonObject params) {
        JsonObjectBuilder message = Json.createObjectBuilder().add("jsonrpc", "2.0").add("method", method);
        if (params != null) {
            message.add("params", params);
        }
        send(message.build());
    }

    final void send(JsonObject message) {
        wire.add(Sender.CLIENT, message);
        transmit(message);
    }

    /** A message from the gateway: recorded, then a response completes its request, a request gets answered. */
    protected final void received(JsonObject message) {
        wire.add(Sender.SERVER, message);
        JsonValue id = message.get("id");
        if (message.containsKey("method")) {
            if (id != null) {
                workers.execute(() -> send(answer(message)));
            }
        } else if (id != null) {
            CompletableFuture<JsonObject> waiting = pending.remove(id.toString());
            if (waiting != null) {
                waiting.complete(message);
            }
        }
    }

    /** Completes a request the gateway refused at the HTTP level (its error carries no id). */
    protected final void refused(JsonObject request, JsonObject error) {
        CompletableFuture<JsonObject> waiting = pending.remove(request.get("id").toString());
        if (waiting != null) {
            waiting.complete(error);
        }
    }

    /** What this client answers the gateway's requests with: fixed values, as a test client may. */
    private static JsonObject answer(JsonObject request) {
        JsonObjectBuilder result = Json.createObjectBuilder();
        switch (request.getString("method")) {
            case "sampling/createMessage" -> result.add("role", "assistant").add("model", "schema-it-model")
                    .add("content", Json.createObjectBuilder().add("type", "text").add("text", "sampled by the schema IT"));
            case "elicitation/create" -> result.add("action", "decline");
            case "roots/list" -> result.add("roots", Json.createArrayBuilder()
                    .add(Json.createObjectBuilder().add("uri", "file:///schema-it").add("name", "schema-it")));
            case "ping" -> {
            }
            default -> {
                return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", request.get("id"))
                        .add("error", Json.createObjectBuilder().add("code", -32601)
                                .add("message", "Method not found: " + request.getString("method"))).build();
            }
        }
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", request.get("id")).add("result", result).build();
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
