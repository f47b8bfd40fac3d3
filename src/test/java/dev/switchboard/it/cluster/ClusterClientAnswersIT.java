package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.SseEvents;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.switchboard.it.cluster.ClusterMembers.A;
import static dev.switchboard.it.cluster.ClusterMembers.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client's answers and cancellations posted to another member than the one running the call they concern, with no
 * stickiness to help: the call runs on A (its backend, the scripted stdio server, is A's child process), the client
 * posts to B. A sampling request raised by the call on A is answered through B and the call completes; an answer in
 * another session, or naming a member that is not in the cluster, is refused with the reason; a cancellation sent to
 * B reaches the backend call on A. The scripted server lists its scripted tools ({@code --list-scripted}): the
 * gateway calls listed tools only.
 */
class ClusterClientAnswersIT {

    @RegisterExtension
    static final ClusterMembers cluster = new ClusterMembers();

    static String admin;
    static String backend;

    @BeforeAll
    static void register() {
        admin = A.login("admin", Api.ADMIN_PASSWORD);
        backend = "asks" + UUID.randomUUID().toString().substring(0, 6);
        Path script = Path.of("src/test/node/scripted-server.js").toAbsolutePath();
        assertTrue(Files.isRegularFile(script), script::toString);
        A.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", backend).add("command", "node")
                .add("scope", "shared").add("args", Json.createArrayBuilder().add(script.toString()).add("--list-scripted")).build()).expect(201);
    }

    @Test
    void aSamplingRequestRaisedByACallOnAIsAnsweredThroughBAndTheCallCompletes() throws Exception {
        String session = openSession(A);
        try (SseEvents call = callOnStream(A, session, "ask-1", "ask")) {
            Map<String, JsonObject> asked = new HashMap<>();
            while (asked.size() < 2) {
                JsonObject message = nextMessage(call);
                asked.put(message.getString("method"), message);
            }
            JsonValue samplingId = asked.get("sampling/createMessage").get("id");
            String id = ((JsonString) samplingId).getString();
            assertTrue(id.startsWith("switchboard-"), id);
            JsonObject sampled = Json.createObjectBuilder().add("role", "assistant").add("model", "sampled-through-B")
                    .add("content", Json.createObjectBuilder().add("type", "text").add("text", "hello from B")).build();

            String otherSession = openSession(B);
            HttpResponse<String> elsewhere = post(B, otherSession, result(samplingId, sampled));
            assertRefused(elsewhere, 400, "not_waiting", "names no request of this session that waits for an answer");
            String gone = "switchboard-" + UUID.randomUUID() + id.substring(id.indexOf('.'));
            assertRefused(post(B, session, result(Json.createValue(gone), sampled)), 400, "member_gone",
                    "was sent by a gateway member that has left the cluster");

            HttpResponse<String> throughB = post(B, session, result(samplingId, sampled));
            assertEquals(202, throughB.statusCode(), throughB::body);
            assertRefused(post(B, session, result(samplingId, sampled)), 400, "not_waiting",
                    "names no request of this session");
            HttpResponse<String> rootsOnA = post(A, session, result(asked.get("roots/list").get("id"),
                    Json.createObjectBuilder().add("roots", Json.createArrayBuilder()).build()));
            assertEquals(202, rootsOnA.statusCode(), rootsOnA::body);

            JsonObject response = nextMessage(call);
            assertEquals("ask-1", response.getString("id"), response::toString);
            String text = response.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text");
            assertTrue(text.contains("sampled-through-B") && text.contains("hello from B"), text);
        }
    }

    @Test
    void aCancellationSentToBReachesTheBackendCallOnA() throws Exception {
        String session = openSession(A);
        int before = cancellationsSeenByTheBackend(session);
        String call = toolCall("hang-1", "hang");
        long started = System.nanoTime();
        CompletableFuture<HttpResponse<String>> hanging = CompletableFuture.supplyAsync(() -> McpHttp.sendTo(A.base(), "POST",
                call, "Authorization", "Bearer " + admin, "Accept", "application/json", "Content-Type", "application/json",
                "Mcp-Session-Id", session));
        Thread.sleep(1_500);
        String cancel = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"hang-1\"}}";
        HttpResponse<String> cancelled = post(B, session, cancel);
        assertEquals(202, cancelled.statusCode(), cancelled::body);

        HttpResponse<String> answer = hanging.get(10, TimeUnit.SECONDS);
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 10, "answered at once, not at a timeout");
        assertEquals(-32800, McpHttp.rpcCode(answer), answer::body);
        assertEquals(before + 1, cancellationsSeenByTheBackend(session), "A told its backend the call was cancelled");
    }

    /** How many {@code notifications/cancelled} A's child process of the backend has received (its tool {@code cancelled}). */
    private static int cancellationsSeenByTheBackend(String session) {
        HttpResponse<String> reply = McpHttp.sendTo(A.base(), "POST", toolCall("count-" + UUID.randomUUID(), "cancelled"),
                "Authorization", "Bearer " + admin, "Accept", "application/json", "Content-Type", "application/json",
                "Mcp-Session-Id", session);
        JsonObject result = McpHttp.response(reply).getJsonObject("result");
        assertNotNull(result, reply::body);
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readArray().size();
        }
    }

    /** A session of the admin that offers sampling and roots, opened on {@code member}. */
    private static String openSession(ClusterMembers.Member member) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", "initialize")
                .add("params", Json.createObjectBuilder().add("protocolVersion", "2025-11-25")
                        .add("capabilities", Json.createObjectBuilder().add("sampling", Json.createObjectBuilder())
                                .add("roots", Json.createObjectBuilder()))
                        .add("clientInfo", Json.createObjectBuilder().add("name", "cluster-it").add("version", "1"))).build().toString();
        HttpResponse<String> init = McpHttp.sendTo(member.base(), "POST", body, "Authorization", "Bearer " + admin,
                "Accept", McpHttp.BOTH, "Content-Type", "application/json");
        assertEquals(200, init.statusCode(), init::body);
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    /** POSTs a tools/call accepting SSE; the answer's events as they come. */
    private static SseEvents callOnStream(ClusterMembers.Member member, String session, String id, String tool)
            throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(member.base() + "/mcp")).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(toolCall(id, tool))).header("Authorization", "Bearer " + admin)
                .header("Accept", McpHttp.BOTH).header("Content-Type", "application/json").header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25").build();
        HttpResponse<InputStream> response = McpHttp.HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
        if (!response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            try (InputStream body = response.body()) {
                throw new AssertionError("expected the call's SSE stream, got " + response.statusCode() + ": "
                        + new String(body.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return new SseEvents(response.body());
    }

    /** The next JSON-RPC message on the stream (events without data only prime it for resumption). */
    private static JsonObject nextMessage(SseEvents events) throws Exception {
        List<String> skipped = new ArrayList<>();
        for (SseEvents.Event event = events.next(); event != null; event = events.next()) {
            if (!event.data().isBlank()) {
                return event.json();
            }
            skipped.add(String.valueOf(event.id()));
        }
        throw new AssertionError("the stream ended; events without data: " + skipped);
    }

    private static String toolCall(String id, String tool) {
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", backend + "__" + tool)
                        .add("arguments", Json.createObjectBuilder())).build().toString();
    }

    private static String result(JsonValue id, JsonObject result) {
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("result", result).build().toString();
    }

    private static HttpResponse<String> post(ClusterMembers.Member member, String session, String body) {
        return McpHttp.sendTo(member.base(), "POST", body, "Authorization", "Bearer " + admin, "Accept", McpHttp.BOTH,
                "Content-Type", "application/json", "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25");
    }

    private static void assertRefused(HttpResponse<String> reply, int status, String reason, String message) {
        assertEquals(status, reply.statusCode(), reply::body);
        JsonObject error = McpHttp.json(reply).getJsonObject("error");
        assertNotNull(error, reply::body);
        assertEquals(-32600, error.getInt("code"), reply::body);
        assertEquals(reason, error.getJsonObject("data").getString("reason"), reply::body);
        assertTrue(error.getString("message").contains(message), reply::body);
    }
}
