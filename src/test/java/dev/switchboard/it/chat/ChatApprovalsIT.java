package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.EverythingAssistant;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 004's confirm step on the running server: a tool that is not auto-approved waits, stored as {@code pending},
 * for {@code POST /api/messages/{id}/tool-confirm} from another connection; approve, reject, and the timeout
 * ({@code switchboard.chat.approval-timeout=PT4S} on the IT server).
 */
class ChatApprovalsIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final EverythingAssistant chat = new EverythingAssistant("approve", List.of("get-sum"), List.of());
    @RegisterExtension
    static final NewUser bob = new NewUser();

    static String echo() {
        return chat.tool("echo");
    }

    static JsonObject ask(Script script, String session, boolean stream) {
        return Json.createObjectBuilder().add("assistant_id", chat.assistant()).add("stream", stream).add("session_id", session)
                .add("messages", Json.createArrayBuilder().add(Chat.user("echo something " + script.key()))).build();
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
                new ToolCall("a2", chat.tool("get-sum"), "{\"a\":1,\"b\":2}")), Reply.text("approved and done"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(Api.BASE + "/api/chat/completions"))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + chat.owner()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(ask(script, "approve-" + script.key(), true).toString())).build();
        HttpResponse<java.util.stream.Stream<String>> response = Chat.http1().send(request, HttpResponse.BodyHandlers.ofLines());
        List<JsonObject> chunks = new ArrayList<>();
        List<String> seenWhileWaiting = new ArrayList<>();
        response.body().filter(l -> l.startsWith("data: {")).map(l -> json(l.substring(6))).forEach(chunk -> {
            chunks.add(chunk);
            if ("tool_call_updated".equals(chunk.getString("type"))
                    && "pending".equals(chunk.getJsonObject("toolCall").getString("status"))) {
                long message = chunk.getJsonNumber("messageId").longValue();
                JsonObject standing = Api.get("/api/messages/" + message, chat.owner()).expect(200).json();
                seenWhileWaiting.add(standing.getString("state"));
                standing.getJsonArray("toolCalls").getValuesAs(JsonObject.class)
                        .forEach(c -> seenWhileWaiting.add(c.getString("id") + ":" + c.getString("status")));
                assertEquals("not_found", Api.post("/api/messages/" + message + "/tool-confirm", bob.token(), confirm("a1", true))
                        .expect(404).errorCode(), "someone else's message");
                Api.post("/api/messages/" + message + "/tool-confirm", chat.owner(), confirm("nope", true)).expect(404);
                Api.post("/api/messages/999999999/tool-confirm", chat.owner(), confirm("a1", true)).expect(404);
                Api.post("/api/messages/" + message + "/tool-confirm", chat.owner(), Json.createObjectBuilder().add("toolCallId", "a1")
                        .add("approved", "yes").build()).expect(400);
                Api.post("/api/messages/" + message + "/tool-confirm", chat.owner(), Json.createObjectBuilder(confirm("a1", true))
                        .add("arguments", "{\"message\":\"as text\"}").build()).expect(400);
                JsonObject decided = Api.post("/api/messages/" + message + "/tool-confirm", chat.owner(), Json.createObjectBuilder(confirm("a1", true))
                        .add("arguments", Json.createObjectBuilder().add("message", "edited")).build()).expect(200).json();
                assertEquals("invoking", decided.getString("status"));
                assertEquals("already_decided", Api.post("/api/messages/" + message + "/tool-confirm", chat.owner(), confirm("a1", false))
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
        assertEquals("Echo: edited", Chat.toolMessage(script.requests().get(1).getJsonArray("messages"), "a1"));

        long message = chunks.get(chunks.size() - 1).getJsonNumber("message_id").longValue();
        JsonObject stored = Api.get("/api/messages/" + message, chat.owner()).expect(200).json();
        assertEquals("finished", stored.getString("state"));
        JsonObject call = stored.getJsonArray("toolCalls").getJsonObject(0);
        assertEquals("done", call.getString("status"));
        assertEquals("edited", call.getJsonObject("arguments").getString("message"));
        assertEquals("not_found", Api.get("/api/messages/" + message, bob.token()).expect(404).errorCode());
    }

    @Test
    void aBlockingRequestWaitsAndARejectionTellsTheLlm() {
        Script script = provider.script(Reply.tools(new ToolCall("r1", echo(), "{\"message\":\"no\"}")), Reply.text("you said no"));
        String session = "reject-" + script.key();
        CompletableFuture<JsonObject> answer = CompletableFuture.supplyAsync(() ->
                Api.post("/api/chat/completions", chat.owner(), ask(script, session, false)).expect(200).json());
        long message = Chat.pendingMessage(chat.owner(), session);
        JsonObject decided = Api.post("/api/messages/" + message + "/tool-confirm", chat.owner(), confirm("r1", false)).expect(200).json();
        assertEquals("cancelled", decided.getString("status"));

        JsonObject done = answer.join();
        assertEquals("you said no", done.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));
        assertEquals(0, done.getJsonObject("tool_execution").getJsonArray("tools_called").size(), "nothing ran");
        assertFalse(done.getJsonObject("tool_execution").getBoolean("executed"), "the only call was rejected: nothing executed");
        assertEquals(1, done.getJsonObject("tool_execution").getInt("rounds"), "the round of the rejected call still counts");
        String told = Chat.toolMessage(script.requests().get(1).getJsonArray("messages"), "r1");
        assertEquals("tool_rejected", json(told).getJsonObject("error").getString("code"));
        assertEquals("The user refused to run the tool '" + echo() + "'; it did not run.", json(told).getJsonObject("error").getString("message"));
        assertEquals("cancelled", Api.get("/api/messages/" + message, chat.owner()).json().getJsonArray("toolCalls").getJsonObject(0).getString("status"));
    }

    @Test
    void nobodyAnsweringCancelsTheCallAndTellsTheLlm() {
        Script script = provider.script(Reply.tools(new ToolCall("t1", echo(), "{\"message\":\"late\"}")), Reply.text("nobody approved it"));
        String session = "timeout-" + script.key();
        JsonObject done = Api.post("/api/chat/completions", chat.owner(), ask(script, session, false)).expect(200).json();
        assertEquals("nobody approved it", done.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));
        String told = Chat.toolMessage(script.requests().get(1).getJsonArray("messages"), "t1");
        assertEquals("approval_timeout", json(told).getJsonObject("error").getString("code"));
        assertTrue(told.contains("PT4S"), told);
        long message = done.getJsonNumber("message_id").longValue();
        assertEquals("cancelled", Api.get("/api/messages/" + message, chat.owner()).json().getJsonArray("toolCalls").getJsonObject(0).getString("status"));
        assertEquals("already_decided", Api.post("/api/messages/" + message + "/tool-confirm", chat.owner(), confirm("t1", true))
                .expect(409).errorCode(), "too late to approve");
    }

    @Test
    void aStreamClosedWhileItsCallWaitsStopsTheWaitAndCancelsTheCall() throws Exception {
        Script script = provider.script(Reply.tools(new ToolCall("h1", echo(), "{\"message\":\"bye\"}")), Reply.text("nobody reads this"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(Api.BASE + "/api/chat/completions"))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + chat.owner()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(ask(script, "hangup-" + script.key(), true).toString())).build();
        HttpResponse<java.io.InputStream> response = Chat.http1().send(request, HttpResponse.BodyHandlers.ofInputStream());
        long message = -1;
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(response.body(), java.nio.charset.StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null && message < 0; line = lines.readLine()) {
                if (line.startsWith("data: {") && line.contains("\"tool_call_updated\"")) {
                    message = json(line.substring(6)).getJsonNumber("messageId").longValue();
                }
            }
        }
        assertTrue(message > 0, "the pending call was announced");
        JsonObject stored = Api.get("/api/messages/" + message, chat.owner()).expect(200).json();
        Instant deadline = Instant.now().plusSeconds(30);
        while (!"finished".equals(stored.getString("state")) && Instant.now().isBefore(deadline)) {
            Thread.sleep(200);
            stored = Api.get("/api/messages/" + message, chat.owner()).expect(200).json();
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
        JsonObject handedBack = Api.post("/api/chat/completions", chat.owner(), body).expect(200).json();
        JsonObject choice = handedBack.getJsonArray("choices").getJsonObject(0);
        assertEquals("tool_calls", choice.getString("finish_reason"), "a round with a caller tool is the caller's, whole");
        assertEquals(2, choice.getJsonObject("message").getJsonArray("tool_calls").size());
        long message = handedBack.getJsonNumber("message_id").longValue();
        assertEquals("not_awaiting_approval", Api.post("/api/messages/" + message + "/tool-confirm", chat.owner(), confirm("c2", true))
                .expect(409).errorCode());
    }
}
