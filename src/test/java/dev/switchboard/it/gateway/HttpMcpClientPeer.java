package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.SseEvents.Event;
import dev.switchboard.it.support.SseEvents;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.switchboard.it.support.McpHttp.BOTH;
import static dev.switchboard.it.support.McpHttp.HTTP;

/**
 * {@link McpClientPeer} over Streamable HTTP: each message is a POST; a JSON answer is one message, an SSE answer is
 * read on a worker event by event; {@link #openServerStream()} reads the session's GET stream the same way.
 */
final class HttpMcpClientPeer extends McpClientPeer {

    /** The version from which clients send {@code MCP-Protocol-Version} (2025-03-26 clients send none). */
    private static final String VERSION_HEADER_SINCE = "2025-06-18";

    private final URI endpoint;
    private final String token;
    private final List<InputStream> open = new CopyOnWriteArrayList<>();
    /** How each message of the gateway travelled, in order: "json", "post-sse" (a POST's SSE answer) or "get-sse". */
    final List<String> carriers = new CopyOnWriteArrayList<>();
    /** The messages that arrived on the session's GET stream. */
    final List<JsonObject> onServerStream = new CopyOnWriteArrayList<>();
    private volatile String session;

    HttpMcpClientPeer(String path, String token, String version) {
        super("client of " + path + " over Streamable HTTP", version);
        this.endpoint = URI.create(Api.BASE + path);
        this.token = token;
    }

    private HttpRequest.Builder http() {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(WAIT).header("Authorization", "Bearer " + token);
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        if (version() != null && version().compareTo(VERSION_HEADER_SINCE) >= 0) {
            request.header("MCP-Protocol-Version", version());
        }
        return request;
    }

    @Override
    protected void transmit(JsonObject message) {
        HttpResponse<InputStream> response = exchange(http().header("Accept", BOTH)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(message.toString())));
        session = session != null ? session : response.headers().firstValue("Mcp-Session-Id").orElse(null);
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (type.startsWith("text/event-stream")) {
            readEvents(response.body(), false);
            return;
        }
        String body = text(response);
        if (response.statusCode() == 202) {
            if (!body.isEmpty()) {
                throw new AssertionError("202 with a body for " + message + ": " + body);
            }
            return;
        }
        if (!type.startsWith("application/json")) {
            throw new AssertionError("HTTP " + response.statusCode() + " " + type + " for " + message + ": " + body);
        }
        JsonObject answer = parse(body);
        carriers.add("json");
        received(answer);
        if (response.statusCode() != 200 && message.containsKey("id")) {
            refused(message, answer);
        }
    }

    /** An answer with its HTTP status. */
    record RawAnswer(int status, JsonObject message) {
    }

    /** POSTs a body that is no JSON-RPC message at all; the gateway's answer is recorded and returned with its status. */
    RawAnswer postRaw(String body) {
        HttpResponse<InputStream> response = exchange(http().header("Accept", BOTH)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
        JsonObject answer = parse(text(response));
        carriers.add("json");
        received(answer);
        return new RawAnswer(response.statusCode(), answer);
    }

    /** Opens the session's GET stream; what arrives on it is read on a worker until the session ends. */
    void openServerStream() {
        HttpResponse<InputStream> response = exchange(http().header("Accept", "text/event-stream").GET());
        if (response.statusCode() != 200) {
            throw new AssertionError("GET stream refused: HTTP " + response.statusCode() + " " + text(response));
        }
        readEvents(response.body(), true);
    }

    /** DELETE: ends the session. */
    int terminate() {
        HttpResponse<InputStream> response = exchange(http().DELETE());
        text(response);
        return response.statusCode();
    }

    private void readEvents(InputStream body, boolean serverStream) {
        open.add(body);
        workers.execute(() -> {
            try (SseEvents events = new SseEvents(body)) {
                Event event;
                while ((event = events.next()) != null) {
                    // a priming event carries an id and retry but no message
                    if (!event.data().isBlank()) {
                        JsonObject message = json(event);
                        carriers.add(serverStream ? "get-sse" : "post-sse");
                        if (serverStream) {
                            onServerStream.add(message);
                        }
                        received(message);
                    }
                }
            } catch (IOException e) {
                // the stream was closed: the session ended or the peer was closed
            } finally {
                open.remove(body);
            }
        });
    }

    /** An event's message; data that is no JSON object is kept as such, so the schema check reports it. */
    private static JsonObject json(Event event) {
        try {
            return event.json();
        } catch (RuntimeException e) {
            return Json.createObjectBuilder().add("notJsonRpc", event.data()).build();
        }
    }

    private HttpResponse<InputStream> exchange(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new AssertionError("HTTP exchange with " + endpoint + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static String text(HttpResponse<InputStream> response) {
        try (InputStream body = response.body()) {
            return new String(body.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("cannot read the answer: " + e, e);
        }
    }

    private static JsonObject parse(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        } catch (RuntimeException e) {
            throw new AssertionError("the gateway's answer is not a JSON object: " + text, e);
        }
    }

    @Override
    public void close() {
        for (InputStream stream : open) {
            try {
                stream.close();
            } catch (IOException ignored) {
                // closing a stream that already broke
            }
        }
        super.close();
    }
}
