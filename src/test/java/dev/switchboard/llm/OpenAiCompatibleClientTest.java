package dev.switchboard.llm;

import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ScriptedProvider.ToolCallShape;
import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider client against a real (scripted) OpenAI-compatible HTTP server. */
class OpenAiCompatibleClientTest {

    static final String KEY = "sk-test-secret-4711";
    static ScriptedProvider provider;
    static ExecutorService executor;
    static ScheduledExecutorService deadlines;
    static OpenAiCompatibleClient client;

    @BeforeAll
    static void start() {
        provider = ScriptedProvider.start(0);
        executor = Executors.newCachedThreadPool();
        deadlines = Executors.newSingleThreadScheduledExecutor();
        client = client(provider.baseUrl(), Duration.ofSeconds(2));
    }

    @AfterAll
    static void stop() {
        provider.close();
        executor.shutdownNow();
        deadlines.shutdownNow();
    }

    static OpenAiCompatibleClient client(String baseUrl, Duration readTimeout) {
        return new OpenAiCompatibleClient(new LlmSettings(URI.create(baseUrl), KEY, "default-model", Duration.ofSeconds(2),
                readTimeout), executor, deadlines);
    }

    static JsonObject ask(Script script) {
        return Json.createObjectBuilder().add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("role", "user").add("content", "hello " + script.key()))).build();
    }

    @Test
    void blockingTextWithDefaultModelAndKey() throws Exception {
        Script script = provider.script(Reply.text("Hello there"));
        LlmReply reply = client.complete(ask(script));
        assertEquals("Hello there", reply.content());
        assertEquals("stop", reply.finishReason());
        assertEquals(new Usage(10, 5, 15), reply.usage());
        JsonObject sent = script.requests().get(0);
        assertEquals("default-model", sent.getString("model"));
        assertFalse(sent.containsKey("stream"));
        assertTrue(provider.authorizations().contains("Bearer " + KEY));
        assertFalse(client.settings().toString().contains(KEY), "settings never print the key");
    }

    @Test
    void blockingToolCalls() throws Exception {
        Script script = provider.script(Reply.tools(new ToolCall("call_1", "mcp__a__echo", "{\"message\":\"hi\"}"),
                new ToolCall("call_2", "mcp__a__add", "{\"a\":1,\"b\":2}")));
        LlmReply reply = client.complete(ask(script));
        assertEquals("tool_calls", reply.finishReason());
        assertEquals(List.of(new ToolCall("call_1", "mcp__a__echo", "{\"message\":\"hi\"}"),
                new ToolCall("call_2", "mcp__a__add", "{\"a\":1,\"b\":2}")), reply.toolCalls());
    }

    @Test
    void streamedTextArrivesInPieces() throws Exception {
        Script script = provider.script(Reply.text("Streaming answers arrive in pieces"));
        List<String> pieces = new ArrayList<>();
        LlmReply reply = client.stream(ask(script), pieces::add);
        assertEquals("Streaming answers arrive in pieces", reply.content());
        assertTrue(pieces.size() > 3, "several deltas: " + pieces);
        assertEquals(new Usage(10, 5, 15), reply.usage(), "include_usage was asked for");
        JsonObject sent = script.requests().get(0);
        assertTrue(sent.getBoolean("stream"));
        assertTrue(sent.getJsonObject("stream_options").getBoolean("include_usage"));
    }

    @Test
    void eachWaitForTheProviderIsReportedAfterTheTextBeforeIt() throws Exception {
        Script script = provider.script(Reply.text("Pieces with pauses between them").chunkDelay(30));
        List<String> events = new ArrayList<>();
        LlmReply reply = client.stream(ask(script), new StreamListener() {
            @Override
            public void onContent(String delta) {
                events.add(delta);
            }

            @Override
            public void onWaiting() {
                events.add("|");
            }
        });
        assertEquals("Pieces with pauses between them", reply.content());
        assertEquals(reply.content(), String.join("", events.stream().filter(e -> !e.equals("|")).toList()));
        long pieces = events.stream().filter(e -> !e.equals("|")).count();
        for (int i = 0; i < events.size() - 1; i++) {
            if (!events.get(i).equals("|")) {
                assertEquals("|", events.get(i + 1), "a piece that came alone is followed by a wait: " + events);
            }
        }
        assertTrue(pieces > 3, events.toString());
    }

    @Test
    void streamedFragmentedToolCallsAreAssembled() throws Exception {
        ToolCall one = new ToolCall("call_a", "mcp__s__echo", "{\"message\":\"a long message in pieces\"}");
        ToolCall two = new ToolCall("call_b", "mcp__s__get-sum", "{\"a\":40,\"b\":2}");
        Script script = provider.script(Reply.tools(one, two).shape(ToolCallShape.FRAGMENTED));
        LlmReply reply = client.stream(ask(script), delta -> { });
        assertEquals(List.of(one, two), reply.toolCalls());
        assertEquals("tool_calls", reply.finishReason());
    }

    @Test
    void streamedWholeToolCallsOllamaStyleAreAssembled() throws Exception {
        ToolCall one = new ToolCall("call_x", "mcp__s__echo", "{\"message\":\"x\"}");
        ToolCall two = new ToolCall("call_y", "mcp__s__echo", "{\"message\":\"y\"}");
        Script script = provider.script(Reply.tools(one, two).shape(ToolCallShape.WHOLE));
        LlmReply reply = client.stream(ask(script), delta -> { });
        assertEquals(List.of(one, two), reply.toolCalls());
        assertEquals("tool_calls", reply.finishReason(), "Ollama says stop; tool calls win");
    }

    @Test
    void providerDownIsUnavailable() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        OpenAiCompatibleClient down = client("http://127.0.0.1:" + port + "/v1", Duration.ofSeconds(2));
        LlmException e = assertThrows(LlmException.class, () -> down.complete(Json.createObjectBuilder()
                .add("messages", Json.createArrayBuilder()).build()));
        assertEquals(LlmException.Kind.UNAVAILABLE, e.kind());
        assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
        LlmException streamed = assertThrows(LlmException.class, () -> down.stream(Json.createObjectBuilder()
                .add("messages", Json.createArrayBuilder()).build(), d -> { }));
        assertEquals(LlmException.Kind.UNAVAILABLE, streamed.kind());
    }

    @Test
    void slowProviderTimesOut() {
        OpenAiCompatibleClient impatient = client(provider.baseUrl(), Duration.ofMillis(300));
        Script blocking = provider.script(Reply.text("late").delay(1500));
        LlmException e = assertThrows(LlmException.class, () -> impatient.complete(ask(blocking)));
        assertEquals(LlmException.Kind.TIMEOUT, e.kind());
        Script stalling = provider.script(Reply.text("a stream that stalls half way").chunkDelay(1000));
        List<String> pieces = new ArrayList<>();
        long started = System.nanoTime();
        LlmException stalled = assertThrows(LlmException.class, () -> impatient.stream(ask(stalling), pieces::add));
        assertEquals(LlmException.Kind.TIMEOUT, stalled.kind(), stalled.getMessage());
        assertTrue((System.nanoTime() - started) / 1_000_000 < 1500, "abandoned after the read timeout, not at the end");
    }

    @Test
    void httpErrorsCarryTheProviderMessageButNeverTheKey() {
        Script rejected = provider.script(Reply.raw(404, "application/json", "{\"error\":{\"message\":\"model 'nope' not found\"}}"));
        LlmException e = assertThrows(LlmException.class, () -> client.complete(ask(rejected)));
        assertEquals(LlmException.Kind.REJECTED, e.kind());
        assertEquals(404, e.httpStatus());
        assertTrue(e.getMessage().contains("model 'nope' not found"), e.getMessage());
        assertFalse(e.getMessage().contains(KEY));
        Script failing = provider.script(Reply.raw(503, "text/plain", "overloaded"));
        LlmException failed = assertThrows(LlmException.class, () -> client.stream(ask(failing), d -> { }));
        assertEquals(LlmException.Kind.FAILED, failed.kind());
        assertTrue(failed.getMessage().contains("503") && failed.getMessage().contains("overloaded"), failed.getMessage());
    }

    @Test
    void malformedOutputIsNamed() {
        Script notJson = provider.script(Reply.raw(200, "application/json", "<html>proxy error</html>"));
        LlmException e = assertThrows(LlmException.class, () -> client.complete(ask(notJson)));
        assertEquals(LlmException.Kind.MALFORMED, e.kind());
        assertTrue(e.getMessage().contains("<html>proxy error</html>"), e.getMessage());

        Script noChoices = provider.script(Reply.raw(200, "application/json", "{\"id\":\"x\"}"));
        assertEquals(LlmException.Kind.MALFORMED, assertThrows(LlmException.class, () -> client.complete(ask(noChoices))).kind());

        Script garbage = provider.script(Reply.raw(200, "text/event-stream", "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"}}]}\n\ndata: {oops\n\n"));
        assertEquals(LlmException.Kind.MALFORMED, assertThrows(LlmException.class, () -> client.stream(ask(garbage), d -> { })).kind());

        Script cutShort = provider.script(Reply.raw(200, "text/event-stream", "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"half\"}}]}\n\n"));
        LlmException cut = assertThrows(LlmException.class, () -> client.stream(ask(cutShort), d -> { }));
        assertEquals(LlmException.Kind.MALFORMED, cut.kind());
        assertTrue(cut.getMessage().contains("before the answer was finished"), cut.getMessage());
    }

    /**
     * Where the common pool has one thread (two cores or fewer, like the project machine), {@code sendAsync} would
     * start a thread per request; the client's own pooled threads and the caller's are all a request may use.
     */
    @Test
    void requestsStartNoThreadsOfTheirOwn() throws Exception {
        for (int i = 0; i < 3; i++) {
            client.stream(ask(provider.script(Reply.text("warm up"))), d -> { });
            client.complete(ask(provider.script(Reply.text("warm up"))));
        }
        long before = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
        for (int i = 0; i < 20; i++) {
            client.stream(ask(provider.script(Reply.text("streamed " + i))), d -> { });
            client.complete(ask(provider.script(Reply.text("blocking " + i))));
        }
        long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
        assertTrue(started < 10, started + " threads started for 40 requests (pools may add a few)");
    }

    @Test
    void aBlockingAnswerThatStallsAfterItsHeadersTimesOut() throws Exception {
        HttpServer stalling = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stalling.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, 0);
            exchange.getResponseBody().write("{\"choices\":".getBytes(StandardCharsets.UTF_8));
            exchange.getResponseBody().flush();
            try {
                Thread.sleep(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        stalling.start();
        try {
            OpenAiCompatibleClient impatient = client("http://127.0.0.1:" + stalling.getAddress().getPort() + "/v1", Duration.ofMillis(300));
            long started = System.nanoTime();
            LlmException e = assertThrows(LlmException.class, () -> impatient.complete(Json.createObjectBuilder()
                    .add("messages", Json.createArrayBuilder()).build()));
            assertEquals(LlmException.Kind.TIMEOUT, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("did not finish its answer"), e.getMessage());
            assertTrue((System.nanoTime() - started) / 1_000_000 < 2000, "abandoned after the read timeout, not when the body ends");
        } finally {
            stalling.stop(0);
        }
    }

    @Test
    void aProviderThatIgnoresStreamIsStillRead() throws Exception {
        Script script = provider.script(Reply.raw(200, "application/json",
                "{\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"whole\"},\"finish_reason\":\"stop\"}]}"));
        List<String> pieces = new ArrayList<>();
        assertEquals("whole", client.stream(ask(script), pieces::add).content());
        assertEquals(List.of("whole"), pieces);
    }
}
