package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.ConversationWatch;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.it.support.SseEvents;
import dev.switchboard.it.support.SseEvents.Event;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import dev.switchboard.platform.sse.SseEvent;
import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.switchboard.it.cluster.ClusterMembers.A;
import static dev.switchboard.it.cluster.ClusterMembers.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streams shared by the members, on the wire, each member spoken to on its own port (server-everything over stdio, a
 * process of it in each member): a list change and a subscribed resource's updates a backend sends to A reach the GET
 * stream a client holds on B; a long-running call's SSE answer cut on A is resumed on B with every event once; a chat
 * run on A is watched from B, and the watch resumed on A.
 */
class ClusterStreamsIT {

    @RegisterExtension
    static final ClusterMembers cluster = new ClusterMembers();
    @RegisterExtension
    static final ScriptedLlm llm = new ScriptedLlm();

    /** HTTP/1.1: one connection per stream, which closing the body really cuts. */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static ClusterTenant tenant;
    private static String everything;
    private static ServerEverything chatBackend;

    @BeforeAll
    static void backends() throws Exception {
        tenant = ClusterTenant.create("streams", "{}");
        everything = tenant.share("everything", "node", ServerEverything.entryPoint().toAbsolutePath().toString(), "stdio");
        chatBackend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
    }

    @AfterAll
    static void stopBackend() {
        if (chatBackend != null) {
            chatBackend.close();
        }
    }

    @Test
    void aNotificationCausedOnAReachesAGetStreamHeldByB() throws Exception {
        String session = tenant.openSession(A);
        try (SseEvents onB = new SseEvents(get(B, session, null))) {
            Event priming = within(onB::next);
            assertTrue(priming.id().startsWith("0-"), priming::toString);
            assertEquals("", priming.data());

            // a resource made by a call on A: server-everything announces resources/list_changed to A's connection
            JsonObject made = post(A, session, call(3, everything + "__gzip-file-as-resource", Json.createObjectBuilder()
                    .add("name", "cluster.txt.gz").add("data", "data:text/plain;base64,aGVsbG8gY2x1c3Rlcg==").build(), null),
                    "application/json");
            assertTrue(made.containsKey("result"), made::toString);

            Event listChanged = nextWithMethod(onB, "notifications/resources/list_changed");
            assertTrue(sequence(listChanged) > sequence(priming), () -> "it follows the priming event: " + listChanged);
        }
    }

    @Test
    void aResourceUpdateOfASubscriptionMadeOnAReachesTheGetStreamOnB() throws Exception {
        String session = tenant.openSession(A);
        JsonObject listed = post(A, session, request(4, "resources/list", Json.createObjectBuilder().build()), "application/json");
        String uri = listed.getJsonObject("result").getJsonArray("resources").getValuesAs(JsonObject.class).stream()
                .map(r -> r.getString("uri")).filter(u -> u.startsWith("switchboard://" + everything + "/")).findFirst()
                .orElseThrow(() -> new AssertionError("no resource of server-everything: " + listed));
        try (SseEvents onB = new SseEvents(get(B, session, null))) {
            within(onB::next);
            JsonObject subscribed = post(A, session, request(5, "resources/subscribe",
                    Json.createObjectBuilder().add("uri", uri).build()), "application/json");
            assertTrue(subscribed.containsKey("result"), subscribed::toString);
            // the backend then sends A's connection an update of each subscribed resource every 5 s
            JsonObject toggled = post(A, session, call(6, everything + "__toggle-subscriber-updates",
                    Json.createObjectBuilder().build(), null), "application/json");
            assertTrue(toggled.containsKey("result"), toggled::toString);

            Event updated = nextWithMethod(onB, "notifications/resources/updated");
            assertEquals(uri, updated.json().getJsonObject("params").getString("uri"), "the URI the session knows");
        }
    }

    @Test
    void aLongRunningCallsStreamCutOnAResumesOnBWithEveryEventExactlyOnce() throws Exception {
        String session = tenant.openSession(A);
        List<Event> beforeCut = new ArrayList<>();
        HttpResponse<InputStream> answer = HTTP.send(mcp(A, session).header("Accept", "text/event-stream")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        call(7, everything + "__trigger-long-running-operation", Json.createObjectBuilder()
                                .add("duration", 4).add("steps", 4).build(), "p-cut").toString())).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, answer.statusCode());
        try (SseEvents onA = new SseEvents(answer.body())) {
            beforeCut.add(within(onA::next));
            beforeCut.add(within(onA::next));
        }
        assertEquals("", beforeCut.get(0).data(), "the priming event");
        assertEquals(1, beforeCut.get(1).json().getJsonObject("params").getInt("progress"), beforeCut::toString);
        String stream = beforeCut.get(1).id().substring(0, beforeCut.get(1).id().indexOf('-'));

        List<Event> resumed = new ArrayList<>();
        try (SseEvents onB = new SseEvents(get(B, session, beforeCut.get(1).id()))) {
            Event event;
            while ((event = within(onB::next)) != null) {
                resumed.add(event);
            }
        }
        List<Object> seen = new ArrayList<>();
        for (Event event : resumed) {
            assertTrue(event.id().startsWith(stream + "-"), () -> "the same stream: " + resumed);
            JsonObject message = event.json();
            seen.add(message.containsKey("method") ? message.getJsonObject("params").getInt("progress") : "response");
        }
        assertEquals(List.of(2, 3, 4, "response"), seen, () -> "every event after the cut once, in order: " + resumed);
        List<Long> sequences = resumed.stream().map(e -> Long.parseLong(e.id().substring(stream.length() + 1))).toList();
        assertEquals(sequences.stream().sorted().distinct().toList(), sequences, "ids grow");
        assertTrue(sequences.get(0) > Long.parseLong(beforeCut.get(1).id().substring(stream.length() + 1)));
        JsonObject response = resumed.get(resumed.size() - 1).json();
        assertEquals(7, response.getInt("id"));
        assertTrue(response.getJsonObject("result").toString().contains("Long running operation completed"), response::toString);

        // the answered stream is kept on every member: A replays its end too
        try (SseEvents again = new SseEvents(get(A, session, resumed.get(2).id()))) {
            assertEquals(resumed.get(3).id(), within(again::next).id());
            assertNull(within(again::next), "a finished stream ends after its replay");
        }
        assertRefused(() -> get(B, session, stream + "-" + (sequences.get(sequences.size() - 1) + 1000)),
                "was never sent on that stream");
    }

    @Test
    void conversationEventsOfARunOnAReachAWatcherOnB() throws Exception {
        String admin = A.login("admin", Api.ADMIN_PASSWORD);
        String name = "watcher-" + UUID.randomUUID().toString().substring(0, 6);
        A.post("/api/users", admin, Json.createObjectBuilder().add("username", name).add("password", "password-" + name)
                .add("role", "user").add("tenant", "default").build()).expect(201);
        String owner = A.login(name, "password-" + name);
        String server = "sum" + UUID.randomUUID().toString().substring(0, 6);
        long serverId = A.post("/api/mcp-servers", owner, Json.createObjectBuilder().add("name", server)
                .add("baseUrl", chatBackend.url()).add("autoApproveTools", Json.createArrayBuilder().add("get-sum"))
                .build()).expect(201).json().getJsonNumber("id").longValue();
        long assistant = A.post("/api/assistants", owner, Json.createObjectBuilder().add("name", "cluster-" + server)
                .add("systemPrompt", "You add.").add("mcpServerIds", Json.createArrayBuilder().add(serverId)).build())
                .expect(201).json().getJsonNumber("id").longValue();
        Script script = llm.script(Reply.text("hello"),
                Reply.tools(new ToolCall("c1", "mcp__" + server + "__get-sum", "{\"a\":2,\"b\":3}")), Reply.text("five"));
        String chatSession = "cluster-" + script.key();
        long conversation = A.post("/api/chat/completions", owner, ask(assistant, chatSession, "hello " + script.key()))
                .expect(200).json().getJsonNumber("conversation_id").longValue();

        List<SseEvent> onB = new ArrayList<>();
        CompletableFuture<Api.Reply> run;
        try (ConversationWatch watch = ConversationWatch.open(B.base(), conversation, owner, null)) {
            run = CompletableFuture.supplyAsync(() -> A.post("/api/chat/completions", owner,
                    ask(assistant, chatSession, "add " + script.key())));
            onB.addAll(watch.until(e -> isCall(e, "c1", "invoking")));
        }
        assertEquals(200, run.get(60, TimeUnit.SECONDS).status());
        SseEvent invoking = onB.get(onB.size() - 1);
        assertEquals("assistant.toolCall.updated", invoking.event());

        // the watch, cut on B, resumes on A after its last event: the rest of the run, each event once
        try (ConversationWatch watch = ConversationWatch.open(A.base(), conversation, owner, invoking.id())) {
            List<SseEvent> rest = watch.until(e -> isCall(e, "c1", "done"));
            rest.add(watch.next());
            assertEquals("tool.message.updated", rest.get(0).event(), () -> "the event after the last one B wrote: " + rest);
            assertEquals("tool.message.updated", rest.get(rest.size() - 1).event(), rest::toString);
            List<String> ids = new ArrayList<>(onB.stream().map(SseEvent::id).toList());
            rest.forEach(e -> ids.add(e.id()));
            assertEquals(ids.stream().distinct().count(), ids.size(), () -> "no event twice: " + ids);
            assertTrue(rest.stream().noneMatch(e -> "conversation.reload".equals(e.event())), rest::toString);
        }
    }

    private static JsonObject ask(long assistant, String session, String text) {
        return Json.createObjectBuilder().add("assistant_id", assistant).add("session_id", session)
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder().add("role", "user").add("content", text)))
                .build();
    }

    private static boolean isCall(SseEvent event, String id, String status) {
        if (!"assistant.toolCall.updated".equals(event.event())) {
            return false;
        }
        JsonObject call = json(event.data()).getJsonObject("toolCall");
        return call.getString("id").equals(id) && call.getString("status").equals(status);
    }

    private static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    private static HttpRequest.Builder mcp(ClusterMembers.Member member, String session) {
        return HttpRequest.newBuilder(URI.create(member.base() + "/mcp")).timeout(Duration.ofSeconds(90))
                .header("Authorization", "Bearer " + tenant.userToken).header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25");
    }

    /** The session's GET stream on {@code member}, from its current position or after {@code lastEventId}. */
    private static InputStream get(ClusterMembers.Member member, String session, String lastEventId) throws Exception {
        HttpRequest.Builder request = mcp(member, session).header("Accept", "text/event-stream").GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() != 200) {
            return failed(response);
        }
        return response.body();
    }

    private static InputStream failed(HttpResponse<InputStream> response) throws Exception {
        throw new RefusedGet(response.statusCode(), new String(response.body().readAllBytes()));
    }

    /** A GET answered with an error. */
    private static final class RefusedGet extends Exception {
        final int status;
        final String body;

        RefusedGet(int status, String body) {
            super(status + " " + body);
            this.status = status;
            this.body = body;
        }
    }

    private static void assertRefused(Callable<InputStream> get, String message) {
        try {
            get.call().close();
            throw new AssertionError("the GET was answered with a stream");
        } catch (RefusedGet refused) {
            assertEquals(400, refused.status, refused.body);
            assertTrue(refused.body.contains(message), refused.body);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static JsonObject post(ClusterMembers.Member member, String session, JsonObject message, String accept) throws Exception {
        HttpResponse<String> reply = HTTP.send(mcp(member, session).header("Accept", accept)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(message.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, reply.statusCode(), reply::body);
        return McpHttp.response(reply);
    }

    /** A {@code tools/call}, with a progress token when it is not null. */
    private static JsonObject call(int id, String tool, JsonObject arguments, String progressToken) {
        var params = Json.createObjectBuilder().add("name", tool).add("arguments", arguments);
        if (progressToken != null) {
            params.add("_meta", Json.createObjectBuilder().add("progressToken", progressToken));
        }
        return request(id, "tools/call", params.build());
    }

    private static JsonObject request(int id, String method, JsonObject params) {
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", method).add("params", params).build();
    }

    /**
     * The next event carrying {@code method}: other notifications to the caller may come first (server-everything's log
     * messages reach every GET stream of the caller too).
     */
    private static Event nextWithMethod(SseEvents events, String method) throws Exception {
        while (true) {
            Event event = within(events::next);
            assertNotNull(event, () -> "the stream ended before " + method);
            String got = event.json().getString("method", "");
            if (got.equals(method)) {
                return event;
            }
            assertTrue(got.startsWith("notifications/"), () -> "only notifications on the GET stream: " + event);
        }
    }

    private static long sequence(Event event) {
        return Long.parseLong(event.id().substring(event.id().indexOf('-') + 1));
    }

    /** Waits at most 30 s for what a stream reads next. */
    private static <T> T within(Callable<T> read) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return read.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).get(30, TimeUnit.SECONDS);
    }
}
