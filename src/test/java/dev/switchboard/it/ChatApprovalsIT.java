package dev.switchboard.it;

import dev.switchboard.llm.ScriptedProvider;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 004's confirm step on the running server: a tool that is not auto-approved waits, stored as {@code pending},
 * for {@code POST /api/messages/{id}/tool-confirm} from another connection; approve, reject, and the timeout
 * ({@code switchboard.chat.approval-timeout=PT4S} on the IT server).
 */
class ChatApprovalsIT {

    static ScriptedProvider provider;
    static ServerEverything backend;
    static String alice;
    static String bob;
    static String serverName;
    static long assistant;

    @BeforeAll
    static void start() {
        provider = ChatFixture.startProvider();
        backend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        alice = Api.newUser("default");
        bob = Api.newUser("default");
        serverName = ChatFixture.name("approve");
        assistant = ChatFixture.assistant(alice, ChatFixture.server(alice, serverName, backend.url(), List.of("get-sum"), List.of()));
    }

    @AfterAll
    static void stop() {
        if (provider != null) {
            provider.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    static String echo() {
        return "mcp__" + serverName + "__echo";
    }

    static JsonObject ask(Script script, String session, boolean stream) {
        return Json.createObjectBuilder().add("assistant_id", assistant).add("stream", stream).add("session_id", session)
                .add("messages", Json.createArrayBuilder().add(ChatFixture.user("echo something " + script.key()))).build();
    }

    static JsonObject confirm(String toolCallId, boolean approved) {
        return Json.createObjectBuilder().add("toolCallId", toolCallId).add("approved", approved).build();
    }

    static JsonObject json(String data) {
        try (var reader = Json.createReader(new StringReader(data))) {
            return reader.readObject();
        }
    }

    @Test
    void approvedFromASecondConnectionWhileTheFirstStreamsThenRunsWithEditedArguments() throws Exception {
        Script script = provider.script(Reply.tools(new ToolCall("a1", echo(), "{\"message\":\"original\"}"),
                new ToolCall("a2", "mcp__" + serverName + "__get-sum", "{\"a\":1,\"b\":2}")), Reply.text("approved and done"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(Api.BASE + "/api/chat/completions"))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + alice).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(ask(script, "approve-" + script.key(), true).toString())).build();
        HttpResponse<java.util.stream.Stream<String>> response = ChatFixture.http1().send(request, HttpResponse.BodyHandlers.ofLines());
        List<JsonObject> chunks = new ArrayList<>();
        List<String> seenWhileWaiting = new ArrayList<>();
        response.body().filter(l -> l.startsWith("data: {")).map(l -> json(l.substring(6))).forEach(chunk -> {
            chunks.add(chunk);
            if ("tool_call_updated".equals(chunk.getString("type"))
                    && "pending".equals(chunk.getJsonObject("toolCall").getString("status"))) {
                long message = chunk.getJsonNumber("messageId").longValue();
                JsonObject standing = Api.get("/api/messages/" + message, alice).expect(200).json();
                seenWhileWaiting.add(standing.getString("state"));
                standing.getJsonArray("toolCalls").getValuesAs(JsonObject.class)
                        .forEach(c -> seenWhileWaiting.add(c.getString("id") + ":" + c.getString("status")));
                assertEquals("not_found", Api.post("/api/messages/" + message + "/tool-confirm", bob, confirm("a1", true))
                        .expect(404).errorCode(), "someone else's message");
                Api.post("/api/messages/" + message + "/tool-confirm", alice, confirm("nope", true)).expect(404);
                Api.post("/api/messages/999999999/tool-confirm", alice, confirm("a1", true)).expect(404);
                Api.post("/api/messages/" + message + "/tool-confirm", alice, Json.createObjectBuilder().add("toolCallId", "a1")
                        .add("approved", "yes").build()).expect(400);
                Api.post("/api/messages/" + message + "/tool-confirm", alice, Json.createObjectBuilder(confirm("a1", true))
                        .add("arguments", "{\"message\":\"as text\"}").build()).expect(400);
                JsonObject decided = Api.post("/api/messages/" + message + "/tool-confirm", alice, Json.createObjectBuilder(confirm("a1", true))
                        .add("arguments", Json.createObjectBuilder().add("message", "edited")).build()).expect(200).json();
                assertEquals("invoking", decided.getString("status"));
                assertEquals("already_decided", Api.post("/api/messages/" + message + "/tool-confirm", alice, confirm("a1", false))
                        .expect(409).errorCode());
            }
        });

        assertEquals(List.of("awaiting_approval", "a1:pending", "a2:invoking"), seenWhileWaiting,
                "the waiting state is in the database, readable from another connection");
        List<String> a1 = chunks.stream().filter(c -> "tool_call_updated".equals(c.getString("type")))
                .map(c -> c.getJsonObject("toolCall")).filter(c -> "a1".equals(c.getString("id"))).map(c -> c.getString("status")).toList();
        assertEquals(List.of("pending", "invoking", "done"), a1);
        JsonObject pendingChunk = chunks.stream().filter(c -> "tool_call".equals(c.getString("type"))).findFirst().orElseThrow();
        assertEquals("pending", pendingChunk.getJsonObject("delta").getJsonArray("tool_calls").getJsonObject(0).getString("status"));
        assertEquals(0, pendingChunk.getJsonArray("choices").size(), "not a call for an OpenAI client to run");
        assertEquals("approved and done", String.join("", chunks.stream().filter(c -> "content".equals(c.getString("type")))
                .map(c -> c.getJsonObject("delta").getString("content", "")).toList()));
        assertEquals("stop", chunks.stream().filter(c -> "done".equals(c.getString("type"))).findFirst().orElseThrow().getString("finish_reason"));
        assertEquals("Echo: edited", ChatCompletionsIT.toolMessage(script.requests().get(1).getJsonArray("messages"), "a1"));

        long message = chunks.get(chunks.size() - 1).getJsonNumber("message_id").longValue();
        JsonObject stored = Api.get("/api/messages/" + message, alice).expect(200).json();
        assertEquals("finished", stored.getString("state"));
        JsonObject call = stored.getJsonArray("toolCalls").getJsonObject(0);
        assertEquals("done", call.getString("status"));
        assertEquals("edited", call.getJsonObject("arguments").getString("message"));
        assertEquals("not_found", Api.get("/api/messages/" + message, bob).expect(404).errorCode());
    }

    @Test
    void aBlockingRequestWaitsAndARejectionTellsTheLlm() {
        Script script = provider.script(Reply.tools(new ToolCall("r1", echo(), "{\"message\":\"no\"}")), Reply.text("you said no"));
        String session = "reject-" + script.key();
        CompletableFuture<JsonObject> answer = CompletableFuture.supplyAsync(() ->
                Api.post("/api/chat/completions", alice, ask(script, session, false)).expect(200).json());
        long message = pendingMessage(alice, session);
        JsonObject decided = Api.post("/api/messages/" + message + "/tool-confirm", alice, confirm("r1", false)).expect(200).json();
        assertEquals("cancelled", decided.getString("status"));

        JsonObject done = answer.join();
        assertEquals("you said no", done.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));
        assertEquals(0, done.getJsonObject("tool_execution").getJsonArray("tools_called").size(), "nothing ran");
        String told = ChatCompletionsIT.toolMessage(script.requests().get(1).getJsonArray("messages"), "r1");
        assertEquals("tool_rejected", json(told).getJsonObject("error").getString("code"));
        assertEquals("The user refused to run the tool '" + echo() + "'; it did not run.", json(told).getJsonObject("error").getString("message"));
        assertEquals("cancelled", Api.get("/api/messages/" + message, alice).json().getJsonArray("toolCalls").getJsonObject(0).getString("status"));
    }

    @Test
    void nobodyAnsweringCancelsTheCallAndTellsTheLlm() {
        Script script = provider.script(Reply.tools(new ToolCall("t1", echo(), "{\"message\":\"late\"}")), Reply.text("nobody approved it"));
        String session = "timeout-" + script.key();
        JsonObject done = Api.post("/api/chat/completions", alice, ask(script, session, false)).expect(200).json();
        assertEquals("nobody approved it", done.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));
        String told = ChatCompletionsIT.toolMessage(script.requests().get(1).getJsonArray("messages"), "t1");
        assertEquals("approval_timeout", json(told).getJsonObject("error").getString("code"));
        assertTrue(told.contains("PT4S"), told);
        long message = done.getJsonNumber("message_id").longValue();
        assertEquals("cancelled", Api.get("/api/messages/" + message, alice).json().getJsonArray("toolCalls").getJsonObject(0).getString("status"));
        assertEquals("already_decided", Api.post("/api/messages/" + message + "/tool-confirm", alice, confirm("t1", true))
                .expect(409).errorCode(), "too late to approve");
    }

    @Test
    void aStreamClosedWhileItsCallWaitsStopsTheWaitAndCancelsTheCall() throws Exception {
        Script script = provider.script(Reply.tools(new ToolCall("h1", echo(), "{\"message\":\"bye\"}")), Reply.text("nobody reads this"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(Api.BASE + "/api/chat/completions"))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + alice).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(ask(script, "hangup-" + script.key(), true).toString())).build();
        HttpResponse<java.io.InputStream> response = ChatFixture.http1().send(request, HttpResponse.BodyHandlers.ofInputStream());
        long message = -1;
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(response.body(), java.nio.charset.StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null && message < 0; line = lines.readLine()) {
                if (line.startsWith("data: {") && line.contains("\"tool_call_updated\"")) {
                    message = json(line.substring(6)).getJsonNumber("messageId").longValue();
                }
            }
        }
        assertTrue(message > 0, "the pending call was announced");
        JsonObject stored = Api.get("/api/messages/" + message, alice).expect(200).json();
        Instant deadline = Instant.now().plusSeconds(30);
        while (!"finished".equals(stored.getString("state")) && Instant.now().isBefore(deadline)) {
            Thread.sleep(200);
            stored = Api.get("/api/messages/" + message, alice).expect(200).json();
        }
        assertEquals("error", stored.getString("finishReason"), "the run ended with its client");
        JsonObject call = stored.getJsonArray("toolCalls").getJsonObject(0);
        assertEquals("cancelled", call.getString("status"));
        assertEquals("run_stopped", call.getJsonObject("response").getJsonObject("error").getString("code"),
                "noticed by a keep-alive, before the approval timeout");
        assertEquals(1, script.requests().size(), "the LLM was not asked again");
    }

    @Test
    void callerToolsStillGoBackToTheCallerAndCannotBeConfirmed() {
        JsonObject readFile = Json.createObjectBuilder().add("type", "function").add("function", Json.createObjectBuilder()
                .add("name", "read_file").add("parameters", Json.createObjectBuilder().add("type", "object"))).build();
        Script script = provider.script(Reply.tools(new ToolCall("c1", "read_file", "{\"path\":\"a.txt\"}"), new ToolCall("c2", echo(), "{}")));
        JsonObject body = Json.createObjectBuilder(ask(script, "manual-" + script.key(), false)).add("tools", Json.createArrayBuilder().add(readFile)).build();
        JsonObject handedBack = Api.post("/api/chat/completions", alice, body).expect(200).json();
        JsonObject choice = handedBack.getJsonArray("choices").getJsonObject(0);
        assertEquals("tool_calls", choice.getString("finish_reason"), "a round with a caller tool is the caller's, whole");
        assertEquals(2, choice.getJsonObject("message").getJsonArray("tool_calls").size());
        long message = handedBack.getJsonNumber("message_id").longValue();
        assertEquals("not_awaiting_approval", Api.post("/api/messages/" + message + "/tool-confirm", alice, confirm("c2", true))
                .expect(409).errorCode());
    }

    /** The second connection finds the run by its session, as a client that only knows what it sent would. */
    static long pendingMessage(String token, String session) {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            Optional<JsonObject> conversation = Api.get("/api/conversations", token).expect(200).json().getJsonArray("data")
                    .getValuesAs(JsonObject.class).stream().filter(c -> session.equals(c.getString("sessionId", null))).findFirst();
            if (conversation.isPresent()) {
                JsonArray messages = Api.get("/api/conversations/" + conversation.get().getJsonNumber("id") + "/messages", token)
                        .expect(200).json().getJsonArray("data");
                for (JsonObject m : messages.getValuesAs(JsonObject.class)) {
                    if (m.containsKey("toolCalls") && m.getJsonArray("toolCalls").toString().contains("\"pending\"")) {
                        return m.getJsonNumber("id").longValue();
                    }
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("no pending call for session " + session);
    }
}
