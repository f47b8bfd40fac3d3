package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.ConversationWatch;
import dev.switchboard.it.support.EverythingAssistant;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import dev.switchboard.platform.sse.SseEvent;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 004's broadcast of tool-call states to whoever watches a conversation ({@code GET /api/conversations/{id}/events}):
 * a second connection sees a call wait for approval, approves it through the API and sees it run, each change as
 * {@code assistant.toolCall.updated} and {@code tool.message.updated} in order; {@code Last-Event-ID} resumes with each
 * event once; an id the stream no longer has tells the client to reload; nobody else may watch.
 */
class ConversationEventsIT {

    private static final Set<String> TOOL_CALL_EVENT_FIELDS = Set.of("conversationId", "messageId", "toolCallId", "toolCall");
    private static final Set<String> TOOL_MESSAGE_EVENT_FIELDS = Set.of("conversationId", "messageId", "toolCalls");
    /** Seed 004's ToolCallRecord; {@code response} only once the call has one. */
    private static final Set<String> RECORD_FIELDS = Set.of("id", "serverId", "serverName", "toolName", "displayName", "arguments",
            "status", "isError");

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final EverythingAssistant chat = new EverythingAssistant("watched", List.of("get-sum"), List.of());
    @RegisterExtension
    static final NewUser bob = new NewUser();

    static String body(HttpResponse<InputStream> response) {
        try (InputStream in = response.body()) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (Exception e) {
            return e.toString();
        }
    }

    static JsonObject json(String data) {
        try (var reader = Json.createReader(new StringReader(data))) {
            return reader.readObject();
        }
    }

    static JsonObject ask(Script script, String session, String text) {
        return Json.createObjectBuilder().add("assistant_id", chat.assistant()).add("session_id", session)
                .add("messages", Json.createArrayBuilder().add(Chat.user(text + " " + script.key()))).build();
    }

    /** A first exchange, without tools, makes the conversation that is then watched. */
    static long conversation(Script script, String session) {
        return Api.post("/api/chat/completions", chat.owner(), ask(script, session, "hello")).expect(200).json()
                .getJsonNumber("conversation_id").longValue();
    }

    static boolean isCall(SseEvent event, String id, String status) {
        if (!"assistant.toolCall.updated".equals(event.event())) {
            return false;
        }
        JsonObject call = json(event.data()).getJsonObject("toolCall");
        return call.getString("id").equals(id) && call.getString("status").equals(status);
    }

    @Test
    void aWatcherSeesTheCallWaitApprovesItAndSeesItRunInOrder() throws Exception {
        Script script = provider.script(Reply.text("hello"),
                Reply.tools(new ToolCall("w1", chat.tool("echo"), "{\"message\":\"watched\"}"),
                        new ToolCall("w2", chat.tool("get-sum"), "{\"a\":1,\"b\":2}")),
                Reply.text("both ran"));
        String session = "watched-" + script.key();
        long conversation = conversation(script, session);

        List<SseEvent> events;
        CompletableFuture<JsonObject> answer;
        try (ConversationWatch watch = ConversationWatch.open(Api.BASE, conversation, chat.owner(), null)) {
            answer = CompletableFuture.supplyAsync(() ->
                    Api.post("/api/chat/completions", chat.owner(), ask(script, session, "echo and add")).expect(200).json());
            events = new ArrayList<>(watch.until(e -> isCall(e, "w1", "pending")));
            long message = json(events.get(events.size() - 1).data()).getJsonNumber("messageId").longValue();
            JsonObject approved = Api.post("/api/messages/" + message + "/tool-confirm", chat.owner(), Json.createObjectBuilder()
                    .add("toolCallId", "w1").add("approved", true).build()).expect(200).json();
            assertEquals("invoking", approved.getString("status"));
            events.addAll(watch.until(e -> isCall(e, "w1", "done")));
            // the other call may still be finishing
            Map<String, String> last = lastStatuses(events);
            if (!"done".equals(last.get("w2"))) {
                events.addAll(watch.until(e -> isCall(e, "w2", "done")));
            }
            events.add(watch.next()); // w1's or w2's tool.message.updated after the last change
        }
        assertEquals("both ran", answer.get(60, TimeUnit.SECONDS).getJsonArray("choices").getJsonObject(0)
                .getJsonObject("message").getString("content"));

        Map<String, List<String>> statuses = new LinkedHashMap<>();
        long messageId = -1;
        for (int i = 0; i < events.size(); i += 2) {
            SseEvent callEvent = events.get(i);
            SseEvent messageEvent = events.get(i + 1);
            assertEquals("assistant.toolCall.updated", callEvent.event(), () -> "the events alternate: " + events);
            assertEquals("tool.message.updated", messageEvent.event(), () -> "the events alternate: " + events);
            JsonObject call = json(callEvent.data());
            JsonObject message = json(messageEvent.data());
            assertEquals(TOOL_CALL_EVENT_FIELDS, call.keySet());
            assertEquals(TOOL_MESSAGE_EVENT_FIELDS, message.keySet());
            assertEquals(conversation, call.getJsonNumber("conversationId").longValue());
            assertEquals(conversation, message.getJsonNumber("conversationId").longValue());
            messageId = call.getJsonNumber("messageId").longValue();
            assertEquals(messageId, message.getJsonNumber("messageId").longValue());
            JsonObject record = call.getJsonObject("toolCall");
            assertEquals(record.getString("id"), call.getString("toolCallId"));
            Set<String> expected = new java.util.HashSet<>(RECORD_FIELDS);
            if (record.containsKey("response")) {
                expected.add("response");
            }
            assertEquals(expected, record.keySet(), "seed 004's ToolCallRecord: " + record);
            assertEquals(chat.serverName(), record.getString("serverName"));
            assertTrue(message.getJsonArray("toolCalls").contains(record), "the message's calls include the change: " + message);
            statuses.computeIfAbsent(record.getString("id"), id -> new ArrayList<>()).add(record.getString("status"));
        }
        assertEquals(List.of("pending", "invoking", "done"), statuses.get("w1"), "approval, then the run: " + statuses);
        assertEquals(List.of("invoking", "done"), statuses.get("w2"), "auto-approved: it runs at once: " + statuses);
        JsonObject done = json(events.get(events.size() - 1).data());
        assertEquals(2, done.getJsonArray("toolCalls").size());
        assertTrue(done.getJsonArray("toolCalls").getValuesAs(JsonObject.class).stream().allMatch(c -> c.getString("status").equals("done")),
                "the last tool.message.updated has both calls done: " + done);
        assertEquals(Api.get("/api/messages/" + messageId, chat.owner()).expect(200).json().getJsonArray("toolCalls"),
                done.getJsonArray("toolCalls"), "what was told is what is stored");
        assertIncreasingIds(events);
    }

    @Test
    void lastEventIdResumesWithEachEventOnceAndAnUnknownOneTellsToReload() throws Exception {
        Script script = provider.script(Reply.text("hello"),
                Reply.tools(new ToolCall("r1", chat.tool("get-sum"), "{\"a\":3,\"b\":4}")), Reply.text("seven"),
                Reply.tools(new ToolCall("r2", chat.tool("get-sum"), "{\"a\":5,\"b\":6}")), Reply.text("eleven"));
        String session = "resume-" + script.key();
        long conversation = conversation(script, session);
        List<SseEvent> first;
        try (ConversationWatch watch = ConversationWatch.open(Api.BASE, conversation, chat.owner(), null)) {
            Api.post("/api/chat/completions", chat.owner(), ask(script, session, "add")).expect(200);
            first = watch.until(e -> isCall(e, "r1", "done"));
            first = new ArrayList<>(first);
            first.add(watch.next());
        }
        assertEquals(4, first.size(), "invoking and done, each as two events: " + first);

        try (ConversationWatch resumed = ConversationWatch.open(Api.BASE, conversation, chat.owner(), first.get(0).id())) {
            List<SseEvent> replayed = List.of(resumed.next(), resumed.next(), resumed.next());
            assertEquals(first.subList(1, 4), replayed, "the events after the one named, once each, as they were");
            Api.post("/api/chat/completions", chat.owner(), ask(script, session, "add again")).expect(200);
            SseEvent next = resumed.next();
            assertTrue(isCall(next, "r2", "invoking"), "then the live ones, none repeated: " + next);
            List<SseEvent> all = new ArrayList<>(first);
            all.add(next);
            assertIncreasingIds(all);
        }

        String current = first.get(3).id();
        String otherLog = "1-" + current.substring(current.indexOf('-') + 1);
        try (ConversationWatch tooOld = ConversationWatch.open(Api.BASE, conversation, chat.owner(), otherLog)) {
            SseEvent reload = tooOld.next();
            assertEquals("conversation.reload", reload.event(), "an id the stream does not have: " + reload);
            JsonObject data = json(reload.data());
            assertEquals(conversation, data.getJsonNumber("conversationId").longValue());
            assertEquals("events_missed", data.getString("reason"));
            assertEquals(otherLog, data.getString("lastEventId"));
            assertTrue(reload.id().startsWith(current.substring(0, current.indexOf('-') + 1)), "resume from here: " + reload.id());
        }
    }

    /** Longer than the container's 30 s for an asynchronous request, and than two keep-alive intervals (15 s). */
    @Test
    void aQuietStreamStaysOpenWithKeepAlivesAndStillDelivers() throws Exception {
        Script script = provider.script(Reply.text("hello"), Reply.tools(new ToolCall("q1", chat.tool("get-sum"), "{\"a\":1,\"b\":1}")),
                Reply.text("two"));
        String session = "quiet-" + script.key();
        long conversation = conversation(script, session);
        HttpRequest request = HttpRequest.newBuilder(URI.create(Api.BASE + "/api/conversations/" + conversation + "/events"))
                .header("Authorization", "Bearer " + chat.owner()).header("Accept", "text/event-stream").GET().build();
        HttpResponse<java.util.stream.Stream<String>> response = Chat.http1().send(request, HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        long opened = System.nanoTime();
        java.util.Iterator<String> lines = response.body().iterator();
        CompletableFuture<Integer> keptAlive = CompletableFuture.supplyAsync(() -> {
            int comments = 0;
            while (System.nanoTime() - opened < TimeUnit.SECONDS.toNanos(35)) {
                String line = lines.next();
                if (line.equals(": keep-alive")) {
                    comments++;
                }
                assertTrue(!line.startsWith("data:"), "nothing happened in the conversation: " + line);
            }
            return comments;
        });
        assertTrue(keptAlive.get(60, TimeUnit.SECONDS) >= 1, "keep-alives while it is quiet");
        Api.post("/api/chat/completions", chat.owner(), ask(script, session, "add")).expect(200);
        String event = CompletableFuture.supplyAsync(() -> {
            while (true) {
                String line = lines.next();
                if (line.startsWith("event: ")) {
                    return line;
                }
            }
        }).get(30, TimeUnit.SECONDS);
        assertEquals("event: assistant.toolCall.updated", event, "the stream still delivers after 35 s");
        response.body().close();
    }

    @Test
    void onlyTheOwnerMayWatchAndErrorsAreTheApisJson() throws Exception {
        Script script = provider.script(Reply.text("hello"));
        long conversation = conversation(script, "private-" + script.key());
        String path = "/api/conversations/" + conversation + "/events";
        Api.Reply someoneElse = sseGet(path, bob.token(), null);
        assertEquals(404, someoneElse.status(), someoneElse.text());
        assertEquals("not_found", someoneElse.errorCode(), "someone else's conversation is not there for them");
        assertEquals(404, sseGet("/api/conversations/999999999/events", chat.owner(), null).status());
        Api.Reply admin = sseGet(path, Api.adminToken(), null);
        assertEquals(404, admin.status(), "conversations are their owner's alone, as their messages are: " + admin.text());
        Api.Reply anonymous = sseGet(path, null, null);
        assertEquals(401, anonymous.status());
        assertTrue(anonymous.json().containsKey("error"), anonymous.text());
        Api.Reply badId = sseGet(path, chat.owner(), "yesterday");
        assertEquals(400, badId.status());
        assertEquals("invalid_last_event_id", badId.errorCode());
    }

    /** A GET that asks for an event stream, read whole: for the answers that are not one. */
    static Api.Reply sseGet(String path, String token, String lastEventId) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Api.BASE + path)).timeout(Duration.ofSeconds(30))
                .header("Accept", "text/event-stream").GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<String> response = Chat.http1().send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
                () -> "an error is the API's JSON: " + response.headers().map());
        return new Api.Reply(response.statusCode(), response.headers(), response.body());
    }

    static Map<String, String> lastStatuses(List<SseEvent> events) {
        Map<String, String> last = new LinkedHashMap<>();
        for (SseEvent event : events) {
            if ("assistant.toolCall.updated".equals(event.event())) {
                JsonObject call = json(event.data()).getJsonObject("toolCall");
                last.put(call.getString("id"), call.getString("status"));
            }
        }
        return last;
    }

    /** Ids of one log, each one more than the one before. */
    static void assertIncreasingIds(List<SseEvent> events) {
        String log = events.get(0).id().substring(0, events.get(0).id().indexOf('-'));
        long previous = -1;
        for (SseEvent event : events) {
            assertTrue(event.id().startsWith(log + "-"), () -> "one log: " + events);
            long sequence = Long.parseLong(event.id().substring(log.length() + 1));
            if (previous >= 0) {
                assertEquals(previous + 1, sequence, () -> "consecutive ids: " + events);
            }
            previous = sequence;
        }
    }
}
