package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.EverythingAssistant;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ScriptedProvider.ToolCallShape;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code stream: true}: every data line an OpenAI {@code chat.completion.chunk} with seed 003's {@code type}, sent
 * as it happens, ending with {@code [DONE]}; tool calls in both provider shapes; errors after the stream began.
 */
class ChatStreamingIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final EverythingAssistant chat = new EverythingAssistant("stream", List.of("echo", "get-sum"), List.of());

    static JsonObject ask(Script script, boolean includeUsage) {
        var body = Json.createObjectBuilder().add("assistant_id", chat.assistant()).add("stream", true)
                .add("messages", Json.createArrayBuilder().add(Chat.user("stream please " + script.key())));
        if (includeUsage) {
            body.add("stream_options", Json.createObjectBuilder().add("include_usage", true));
        }
        return body.build();
    }

    @Test
    void autoLoopStreamsChunksOfOneCompletionAsTheyHappen() throws Exception {
        Script script = provider.script(
                Reply.tools(new ToolCall("s1", chat.tool("echo"), "{\"message\":\"whole\"}")).shape(ToolCallShape.WHOLE),
                Reply.tools(new ToolCall("s2", chat.tool("get-sum"), "{\"a\":1,\"b\":2}")).shape(ToolCallShape.FRAGMENTED),
                Reply.text("The answer arrives piece by piece.").chunkDelay(150));
        Chat.Streamed streamed = Chat.stream(chat.owner(), ask(script, true));

        assertEquals(200, streamed.status());
        assertTrue(streamed.contentType().startsWith("text/event-stream"), streamed.contentType());
        List<String> data = streamed.dataLines();
        assertEquals("data: [DONE]", data.get(data.size() - 1));
        List<JsonObject> chunks = streamed.chunks();
        assertEquals(data.size() - 1, chunks.size(), "every other data line is a JSON chunk");
        Set<String> ids = chunks.stream().map(c -> c.getString("id")).collect(Collectors.toSet());
        assertEquals(1, ids.size(), "one id for the whole run");
        assertEquals(1, chunks.stream().map(c -> c.getJsonNumber("created")).distinct().count());
        for (JsonObject chunk : chunks) {
            assertEquals("chat.completion.chunk", chunk.getString("object"));
            assertEquals("scripted-model", chunk.getString("model"));
            assertTrue(chunk.containsKey("choices") && chunk.containsKey("type"), chunk.toString());
        }

        List<JsonObject> toolCalls = ofType(chunks, "tool_call");
        assertEquals(2, toolCalls.size(), "one tool_call chunk per round");
        assertEquals(0, toolCalls.get(0).getJsonArray("choices").size(), "server-run calls stay out of choices");
        assertEquals("s1", toolCalls.get(0).getJsonObject("delta").getJsonArray("tool_calls").getJsonObject(0).getString("id"));
        List<JsonObject> results = ofType(chunks, "tool_result");
        assertEquals(List.of("s1", "s2"), results.stream().map(r -> r.getString("tool_call_id")).toList());
        assertEquals("Echo: whole", results.get(0).getJsonObject("result").getString("content"));
        assertTrue(results.get(0).getJsonObject("result").getBoolean("success"));

        String content = ofType(chunks, "content").stream().map(c -> c.getJsonArray("choices").getJsonObject(0)
                .getJsonObject("delta").getString("content", "")).collect(Collectors.joining());
        assertEquals("The answer arrives piece by piece.", content);
        JsonObject done = ofType(chunks, "done").get(0);
        assertEquals("stop", done.getJsonArray("choices").getJsonObject(0).getString("finish_reason"));
        assertEquals("stop", done.getString("finish_reason"));
        assertEquals(2, done.getJsonObject("tool_execution").getInt("rounds"));
        List<JsonObject> updates = ofType(chunks, "tool_call_updated");
        assertEquals(List.of("invoking", "done", "invoking", "done"), updates.stream()
                .map(u -> u.getJsonObject("toolCall").getString("status")).toList(), "seed 004 status changes");
        assertEquals(4, streamed.lines().stream().filter(l -> l.text().equals("event: assistant.toolCall.updated")).count());
        assertEquals(done.getJsonNumber("message_id"), updates.get(0).getJsonNumber("messageId"));
        assertEquals("echo", updates.get(1).getJsonObject("toolCall").getString("toolName"));
        JsonObject usage = ofType(chunks, "usage").get(0);
        assertEquals(0, usage.getJsonArray("choices").size());
        assertEquals(45, usage.getJsonObject("usage").getInt("total_tokens"));

        int lastResult = 0;
        for (int i = 0; i < streamed.lines().size(); i++) {
            if (streamed.lines().get(i).text().contains("\"type\":\"tool_result\"")) {
                lastResult = i;
            }
        }
        List<Chat.Line> textLines = streamed.lines().subList(lastResult, streamed.lines().size()).stream()
                .filter(l -> l.text().contains("\"type\":\"content\"") && !l.text().contains("\"content\":\"\"")).toList();
        assertTrue(textLines.size() > 5, "the final answer came in pieces");
        long spread = textLines.get(textLines.size() - 1).atMillis() - textLines.get(0).atMillis();
        assertTrue(spread >= 600, "text chunks arrived over " + spread + " ms, as the provider sent them, not all at the end");
    }

    @Test
    void manualModeStreamsTheHandedBackCallsInChoices() throws Exception {
        JsonObject body = Json.createObjectBuilder().add("stream", true)
                .add("messages", Json.createArrayBuilder().add(Chat.user("x")))
                .add("tools", Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "function")
                        .add("function", Json.createObjectBuilder().add("name", "read_file")
                                .add("parameters", Json.createObjectBuilder().add("type", "object"))))).build();
        Script script = provider.script(Reply.tools(new ToolCall("m1", "read_file", "{\"path\":\"a.txt\"}")));
        JsonObject withKey = Json.createObjectBuilder(body).add("messages", Json.createArrayBuilder()
                .add(Chat.user("read " + script.key()))).build();
        List<JsonObject> chunks = Chat.stream(chat.owner(), withKey).chunks();
        JsonObject call = ofType(chunks, "tool_call").get(0);
        JsonObject delta = call.getJsonArray("choices").getJsonObject(0).getJsonObject("delta");
        JsonObject first = delta.getJsonArray("tool_calls").getJsonObject(0);
        assertEquals(0, first.getInt("index"));
        assertEquals("m1", first.getString("id"));
        assertEquals("{\"path\":\"a.txt\"}", first.getJsonObject("function").getString("arguments"));
        assertEquals("tool_calls", ofType(chunks, "done").get(0).getString("finish_reason"));
        assertEquals("pending", ofType(chunks, "tool_call_updated").get(0).getJsonObject("toolCall").getString("status"));
    }

    @Test
    void providerFailureAfterTheStreamBeganIsAnErrorEvent() throws Exception {
        Script script = provider.script(Reply.raw(200, "text/event-stream", "data: {not json}\n\n"));
        Chat.Streamed streamed = Chat.stream(chat.owner(), ask(script, false));
        assertEquals(200, streamed.status());
        List<String> data = streamed.dataLines();
        assertEquals("data: [DONE]", data.get(data.size() - 1));
        JsonObject error = streamed.chunks().stream().filter(c -> c.containsKey("error")).findFirst().orElseThrow();
        assertEquals("llm_malformed", error.getJsonObject("error").getString("code"));
    }

    @Test
    void aCallerThatHangsUpStopsTheRunAndTheMessageSaysSo() throws Exception {
        Script script = provider.script(Reply.text("a long answer nobody will read to the end, sent slowly").chunkDelay(300));
        String session = "hangup-" + script.key();
        JsonObject body = Json.createObjectBuilder(ask(script, false)).add("session_id", session).build();
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(Api.BASE + "/api/chat/completions"))
                .header("Authorization", "Bearer " + chat.owner()).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body.toString())).build();
        var response = java.net.http.HttpClient.newHttpClient().send(request, java.net.http.HttpResponse.BodyHandlers.ofInputStream());
        try (var in = response.body()) {
            assertTrue(in.read(new byte[64]) > 0, "the stream began");
        }
        long deadline = System.currentTimeMillis() + 15_000;
        String finish = null;
        while (System.currentTimeMillis() < deadline && !"error".equals(finish)) {
            Thread.sleep(300);
            var conversation = Api.get("/api/conversations", chat.owner()).expect(200).json().getJsonArray("data")
                    .getValuesAs(JsonObject.class).stream().filter(c -> session.equals(c.getString("sessionId", null))).findFirst();
            if (conversation.isPresent()) {
                var messages = Api.get("/api/conversations/" + conversation.get().getJsonNumber("id") + "/messages", chat.owner())
                        .json().getJsonArray("data");
                JsonObject assistantMessage = messages.getJsonObject(messages.size() - 1);
                finish = assistantMessage.isNull("finishReason") ? null : assistantMessage.getString("finishReason");
            }
        }
        assertEquals("error", finish, "the run stopped when the caller went away");
    }

    @Test
    void manyStreamsAtOnceAllFinish() throws Exception {
        int streams = 24;
        // the first wave connects the backend and issues its tool names concurrently (the race the retry handles)
        runStreams(streams);
        runStreams(streams);
    }

    /** Runs streams side by side, each with its own script, and checks every one got its whole answer. */
    static void runStreams(int streams) throws Exception {
        List<Script> scripts = new java.util.ArrayList<>();
        for (int i = 0; i < streams; i++) {
            scripts.add(provider.script(Reply.text("stream number " + i + " of many, sent in small pieces").chunkDelay(20)));
        }
        var pool = java.util.concurrent.Executors.newFixedThreadPool(streams);
        try {
            List<java.util.concurrent.Future<Chat.Streamed>> answers = new java.util.ArrayList<>();
            for (Script script : scripts) {
                answers.add(pool.submit(() -> Chat.stream(chat.owner(), ask(script, false))));
            }
            for (int i = 0; i < streams; i++) {
                Chat.Streamed streamed = answers.get(i).get(60, java.util.concurrent.TimeUnit.SECONDS);
                String text = ofType(streamed.chunks(), "content").stream()
                        .map(c -> c.getJsonArray("choices").getJsonObject(0).getJsonObject("delta").getString("content", ""))
                        .collect(Collectors.joining());
                assertEquals("stream number " + i + " of many, sent in small pieces", text, () -> streamed.status() + " " + streamed.lines());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static List<JsonObject> ofType(List<JsonObject> chunks, String type) {
        return chunks.stream().filter(c -> type.equals(c.getString("type", ""))).toList();
    }
}
