package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.testing.McpSchemaValidator;
import dev.switchboard.testing.McpSchemaValidator.Sender;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw client of MCP 2026-07-28 (the stateless era) on one endpoint: each request is one POST with the era's headers
 * and {@code _meta}, or with whatever a test sets instead. Every message it sends and every one it receives (the JSON
 * body, or each event of an SSE answer) is kept, with the method it answers, for {@link #schemaProblems}.
 */
final class StatelessPeer {

    static final String VERSION = "2026-07-28";

    /** One answer: the HTTP status, the JSON-RPC response, and the notifications that came before it on a stream. */
    record Answer(int status, JsonObject response, List<JsonObject> notifications) {
        JsonObject result() {
            if (!response.containsKey("result")) {
                throw new AssertionError("expected a result: " + response);
            }
            return response.getJsonObject("result");
        }

        JsonObject error() {
            if (!response.containsKey("error")) {
                throw new AssertionError("expected an error: " + response);
            }
            return response.getJsonObject("error");
        }
    }

    /** @param invalidOnPurpose a client message a test made invalid to see it refused: not checked */
    private record Sent(Sender sender, JsonObject message, String answers, boolean invalidOnPurpose) {
    }

    private final String path;
    private final String token;
    private final AtomicInteger ids = new AtomicInteger();
    private final List<Sent> wire = new ArrayList<>();

    StatelessPeer(String path, String token) {
        this.path = path;
        this.token = token;
    }

    /** The {@code _meta} of a well-formed request with these client capabilities. */
    static JsonObjectBuilder meta(JsonObject capabilities) {
        return Json.createObjectBuilder().add("io.modelcontextprotocol/protocolVersion", VERSION)
                .add("io.modelcontextprotocol/clientInfo", Json.createObjectBuilder().add("name", "it-raw-2026").add("version", "1"))
                .add("io.modelcontextprotocol/clientCapabilities", capabilities);
    }

    /** A well-formed request: its params with {@code _meta} (no capabilities), the era's headers. */
    Answer request(String method, JsonObjectBuilder params) {
        return request(method, params, JsonValue.EMPTY_JSON_OBJECT);
    }

    Answer request(String method, JsonObjectBuilder params, JsonObject capabilities) {
        JsonObject body = body(method, params.add("_meta", meta(capabilities)).build());
        return send(body, headersFor(body));
    }

    /** A request built by the test, with the era's headers for it. */
    JsonObject body(String method, JsonObject params) {
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", ids.incrementAndGet()).add("method", method)
                .add("params", params).build();
    }

    /** The headers a conforming client sends with this body. */
    static Map<String, String> headersFor(JsonObject body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("MCP-Protocol-Version", VERSION);
        headers.put("Mcp-Method", body.getString("method"));
        JsonObject params = body.getJsonObject("params");
        String name = params.getString("name", params.getString("uri", null));
        if (name != null) {
            headers.put("Mcp-Name", name);
        }
        return headers;
    }

    /** POSTs the body with exactly these headers (and the token, Accept and Content-Type). */
    Answer send(JsonObject body, Map<String, String> headers) {
        return send(body, headers, false);
    }

    /** As {@link #send}, for a body the test made invalid on purpose: only the answer is checked against the schema. */
    Answer sendInvalid(JsonObject body, Map<String, String> headers) {
        return send(body, headers, true);
    }

    private Answer send(JsonObject body, Map<String, String> headers, boolean invalidOnPurpose) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Api.BASE + path)).timeout(Duration.ofSeconds(90))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).header("Authorization", "Bearer " + token)
                .header("Accept", McpHttp.BOTH).header("Content-Type", "application/json");
        headers.forEach(request::header);
        HttpResponse<String> reply;
        try {
            reply = McpHttp.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("POST " + path + " failed: " + e, e);
        }
        record(Sender.CLIENT, body, null, invalidOnPurpose);
        String method = body.getString("method", null);
        List<JsonObject> received = messages(reply.body());
        if (received.isEmpty()) {
            throw new AssertionError("no JSON-RPC message in the answer (" + reply.statusCode() + "): " + reply.body());
        }
        received.forEach(m -> record(Sender.SERVER, m, method, false));
        JsonObject response = received.get(received.size() - 1);
        return new Answer(reply.statusCode(), response, received.subList(0, received.size() - 1));
    }

    private synchronized void record(Sender sender, JsonObject message, String answers, boolean invalidOnPurpose) {
        wire.add(new Sent(sender, message, answers, invalidOnPurpose));
    }

    /** Each message of the wire that breaks the 2026-07-28 schema, with what is wrong; empty when all are valid. */
    synchronized List<String> schemaProblems() {
        McpSchemaValidator schema = McpSchemaValidator.forVersion(VERSION);
        List<String> problems = new ArrayList<>();
        for (Sent sent : wire) {
            if (sent.invalidOnPurpose()) {
                continue;
            }
            List<String> found = schema.problems(sent.message(), sent.sender(), sent.answers());
            if (!found.isEmpty()) {
                problems.add(sent.sender() + " " + sent.message() + ": " + found);
            }
        }
        return problems;
    }

    /** How many messages were recorded. */
    synchronized int recorded() {
        return wire.size();
    }

    private static List<JsonObject> messages(String body) {
        String text = body.strip();
        List<String> jsons = text.startsWith("{") ? List.of(text) : text.lines().filter(l -> l.startsWith("data:"))
                .map(l -> l.substring(5).strip()).filter(l -> !l.isEmpty()).toList();
        List<JsonObject> messages = new ArrayList<>();
        for (String json : jsons) {
            try (var reader = Json.createReader(new StringReader(json))) {
                messages.add(reader.readObject());
            }
        }
        return messages;
    }
}
