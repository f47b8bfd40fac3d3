package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.SharedEverything;
import dev.switchboard.it.support.SseEvents.Event;
import dev.switchboard.it.support.SseEvents;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.switchboard.it.support.McpHttp.BOTH;
import static dev.switchboard.it.support.McpHttp.HTTP;
import static dev.switchboard.it.support.McpHttp.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resumable SSE on {@code /mcp} (Streamable HTTP 2025-11-25) on the wire: every event has an id naming its stream,
 * each stream opens with a priming event carrying {@code retry}, a request whose SSE connection is cut goes on and
 * its remaining progress and response arrive on a GET with {@code Last-Event-ID}, and a backend's request sent on
 * the GET stream while the client was away reaches it when it resumes.
 */
class GatewayResumableStreamIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("resume");
    @RegisterExtension
    static final NewUser user = new NewUser();

    static String newSession(boolean sampling) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", "initialize")
                .add("params", Json.createObjectBuilder().add("protocolVersion", "2025-11-25")
                        .add("capabilities", sampling ? Json.createObjectBuilder().add("sampling", Json.createObjectBuilder())
                                : Json.createObjectBuilder())
                        .add("clientInfo", Json.createObjectBuilder().add("name", "resumer").add("version", "1"))).build().toString();
        HttpResponse<String> init = send("POST", body, "Authorization", "Bearer " + user.token(),
                "Accept", BOTH, "Content-Type", "application/json");
        assertEquals(200, init.statusCode(), init::body);
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    static HttpRequest.Builder mcp(String session) {
        return HttpRequest.newBuilder(URI.create(Api.BASE + "/mcp")).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + user.token()).header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25");
    }

    static SseEvents post(String session, String accept, JsonObject message) throws Exception {
        HttpResponse<InputStream> response = HTTP.send(mcp(session).header("Accept", accept)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(message.toString())).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        return new SseEvents(response.body());
    }

    static HttpResponse<InputStream> get(String session, String lastEventId) throws Exception {
        HttpRequest.Builder request = mcp(session).header("Accept", "text/event-stream").GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    static JsonObject call(int id, String tool, JsonObject arguments, String progressToken) {
        var params = Json.createObjectBuilder().add("name", backend.name() + "__" + tool).add("arguments", arguments);
        if (progressToken != null) {
            params.add("_meta", Json.createObjectBuilder().add("progressToken", progressToken));
        }
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", "tools/call").add("params", params).build();
    }

    @Test
    void aCutRequestStreamIsResumedAndItsResponseStillArrives() throws Exception {
        String session = newSession(false);
        String stream;
        try (SseEvents events = post(session, "text/event-stream", call(7, "trigger-long-running-operation",
                Json.createObjectBuilder().add("duration", 3).add("steps", 3).build(), "p-7"))) {
            Event priming = events.next();
            assertEquals("", priming.data(), "the priming event has no data");
            assertEquals("1000", priming.retry(), "the stream asks for the configured reconnection delay");
            assertTrue(priming.id().matches("\\d+-0"), priming::toString);
            stream = priming.id().substring(0, priming.id().indexOf('-'));
            Event first = events.next();
            assertEquals(stream + "-1", first.id());
            assertEquals("notifications/progress", first.json().getString("method"));
            assertEquals(1, first.json().getJsonObject("params").getInt("progress"));
        }
        // the connection is gone; the call goes on, and its events after 1 are kept for the resumption
        HttpResponse<InputStream> resumed = get(session, stream + "-1");
        assertEquals(200, resumed.statusCode());
        List<Event> rest = new ArrayList<>();
        try (SseEvents events = new SseEvents(resumed.body())) {
            Event event;
            while ((event = events.next()) != null) {
                rest.add(event);
            }
        }
        assertEquals(List.of(stream + "-2", stream + "-3", stream + "-4"), rest.stream().map(Event::id).toList(), rest::toString);
        assertEquals(2, rest.get(0).json().getJsonObject("params").getInt("progress"));
        assertEquals(3, rest.get(1).json().getJsonObject("params").getInt("progress"));
        JsonObject response = rest.get(2).json();
        assertEquals(7, response.getInt("id"));
        assertTrue(response.getJsonObject("result").toString().contains("Long running operation completed"), response::toString);

        // a finished stream can still be replayed, from any of its ids
        HttpResponse<InputStream> again = get(session, stream + "-3");
        try (SseEvents events = new SseEvents(again.body())) {
            assertEquals(stream + "-4", events.next().id());
            assertEquals(null, events.next(), "a finished stream ends after its replay");
        }
    }

    @Test
    void aBackendRequestSentWhileTheGetStreamWasDownArrivesOnResumption() throws Exception {
        String session = newSession(true);
        String position;
        HttpResponse<InputStream> first = get(session, null);
        assertEquals(200, first.statusCode());
        try (SseEvents events = new SseEvents(first.body())) {
            Event priming = events.next();
            assertEquals("", priming.data());
            assertTrue(priming.id().startsWith("0-"), priming::toString);
            position = priming.id();
        }
        // a JSON exchange: the backend's sampling request travels on the GET stream, whose connection is down now
        CompletableFuture<HttpResponse<String>> answer = HTTP.sendAsync(mcp(session).header("Accept", "application/json")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        call(8, "trigger-sampling-request", Json.createObjectBuilder().add("prompt", "resume me")
                                .add("maxTokens", 20).build(), null).toString())).build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(1500);
        assertFalse(answer.isDone(), "the call waits for the client's sampling answer");

        HttpResponse<InputStream> resumed = get(session, position);
        assertEquals(200, resumed.statusCode());
        JsonObject sampling = null;
        try (SseEvents events = new SseEvents(resumed.body())) {
            // the backend's log messages reach every session of the caller on this stream too
            Event event;
            while (sampling == null && (event = events.next()) != null) {
                assertTrue(event.id().startsWith("0-") && !event.id().equals(position), event::toString);
                if ("sampling/createMessage".equals(event.json().getString("method", ""))) {
                    sampling = event.json();
                }
            }
        }
        assertTrue(sampling != null, "the sampling request was replayed");
        JsonObject reply = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", sampling.get("id"))
                .add("result", Json.createObjectBuilder().add("role", "assistant").add("model", "resumed-model")
                        .add("content", Json.createObjectBuilder().add("type", "text").add("text", "sampled after resuming"))).build();
        HttpResponse<String> accepted = HTTP.send(mcp(session).header("Accept", BOTH)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(reply.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(202, accepted.statusCode());
        HttpResponse<String> result = answer.get(30, TimeUnit.SECONDS);
        assertEquals(200, result.statusCode(), result::body);
        assertTrue(result.body().contains("sampled after resuming"), result::body);
    }

    @Test
    void lastEventIdsThatNameNothingAreRefusedClearly() throws Exception {
        String session = newSession(false);
        assertRefused(get(session, "yesterday"), "is not an event id of this server (expected <stream>-<number>)");
        assertRefused(get(session, "42-1"), "names a stream this session does not keep");
        try (SseEvents events = new SseEvents(get(session, null).body())) {
            String position = events.next().id();
            String beyond = "0-" + (Long.parseLong(position.substring(2)) + 5);
            assertRefused(get(session, beyond), "was never sent on that stream");
        }
    }

    private static void assertRefused(HttpResponse<InputStream> response, String message) throws IOException {
        assertEquals(400, response.statusCode());
        String body = new String(response.body().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(body.contains(message), body);
        assertTrue(body.contains("-32600"), body);
    }
}
