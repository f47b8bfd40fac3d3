package dev.switchboard.llm;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted OpenAI-compatible provider on 127.0.0.1: a real HTTP server that replays given completions, blocking
 * or streamed (whichever the request asks for), and records the requests it got. Each {@link Script} has a key; a
 * request is answered from the script whose key appears in one of its user messages, so tests can run side by
 * side against one provider.
 */
public final class ScriptedProvider implements AutoCloseable {

    /** How streamed tool calls are cut into chunks. */
    public enum ToolCallShape {
        /** OpenAI / vLLM: {@code index}, {@code id} and name first, then {@code arguments} in small pieces. */
        FRAGMENTED,
        /** Ollama: every call whole in one chunk, no {@code index}, finish reason {@code stop}. */
        WHOLE
    }

    /** One scripted answer. */
    public record Reply(String content, List<ToolCall> toolCalls, ToolCallShape shape, long delayMillis,
                        long chunkDelayMillis, int status, String contentType, String rawBody) {

        public static Reply text(String content) {
            return new Reply(content, List.of(), ToolCallShape.FRAGMENTED, 0, 0, 200, null, null);
        }

        public static Reply tools(ToolCall... calls) {
            return new Reply("", List.of(calls), ToolCallShape.FRAGMENTED, 0, 0, 200, null, null);
        }

        /** A fixed HTTP answer, sent as is whether or not the request asked for a stream. */
        public static Reply raw(int status, String contentType, String body) {
            return new Reply(null, List.of(), ToolCallShape.FRAGMENTED, 0, 0, status, contentType, body);
        }

        public Reply shape(ToolCallShape shape) {
            return new Reply(content, toolCalls, shape, delayMillis, chunkDelayMillis, status, contentType, rawBody);
        }

        /** Waits before the response headers. */
        public Reply delay(long millis) {
            return new Reply(content, toolCalls, shape, millis, chunkDelayMillis, status, contentType, rawBody);
        }

        /** Waits between two stream chunks. */
        public Reply chunkDelay(long millis) {
            return new Reply(content, toolCalls, shape, delayMillis, millis, status, contentType, rawBody);
        }
    }

    /** Replies answered in order, and the requests that took them. */
    public final class Script {
        private final String key;
        private final Deque<Reply> replies;
        private final List<JsonObject> requests = Collections.synchronizedList(new ArrayList<>());

        private Script(String key, List<Reply> replies) {
            this.key = key;
            this.replies = new ConcurrentLinkedDeque<>(replies);
        }

        /** Put this in a user message to have the request answered from this script. */
        public String key() {
            return key;
        }

        public List<JsonObject> requests() {
            return List.copyOf(requests);
        }

        public int remaining() {
            return replies.size();
        }
    }

    private static final AtomicInteger KEYS = new AtomicInteger();
    private static final int PIECE = 4;
    /** Every scripted completion reports this usage. */
    public static final JsonObject USAGE = Json.createObjectBuilder().add("prompt_tokens", 10).add("completion_tokens", 5)
            .add("total_tokens", 15).build();

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-llm");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());

    private ScriptedProvider(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        server.createContext("/v1/chat/completions", this::answer);
        server.setExecutor(threads);
        server.start();
    }

    /** Listens on {@code port} (0: any free port). */
    public static ScriptedProvider start(int port) {
        try {
            return new ScriptedProvider(port);
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on 127.0.0.1:" + port, e);
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public Script script(Reply... replies) {
        Script script = new Script("script-" + KEYS.incrementAndGet() + "-" + System.nanoTime() % 100_000, List.of(replies));
        scripts.put(script.key, script);
        return script;
    }

    /** Every {@code Authorization} header received, in order. */
    public List<String> authorizations() {
        return List.copyOf(authorizations);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            JsonObject request;
            try (var reader = Json.createReader(new StringReader(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)))) {
                request = reader.readObject();
            }
            Script script = scriptFor(request);
            Reply reply = script == null ? null : script.replies.poll();
            if (reply == null) {
                send(exchange, 500, "application/json", "{\"error\":{\"message\":\"script exhausted or unknown\"}}");
                return;
            }
            script.requests.add(request);
            sleep(reply.delayMillis);
            if (reply.rawBody != null) {
                send(exchange, reply.status, reply.contentType, reply.rawBody);
            } else if (request.getBoolean("stream", false)) {
                stream(exchange, request, reply);
            } else {
                send(exchange, 200, "application/json", completion(request, reply).toString());
            }
        } catch (IOException e) {
            // the client went away (timeouts are part of the script); nothing to answer
        }
    }

    private Script scriptFor(JsonObject request) {
        for (JsonValue value : request.getJsonArray("messages")) {
            JsonObject message = value.asJsonObject();
            if ("user".equals(message.getString("role", "")) && message.get("content") instanceof JsonString text) {
                for (Script script : scripts.values()) {
                    if (text.getString().contains(script.key)) {
                        return script;
                    }
                }
            }
        }
        return null;
    }

    private static JsonObject completion(JsonObject request, Reply reply) {
        JsonObjectBuilder message = Json.createObjectBuilder().add("role", "assistant");
        if (reply.content.isEmpty() && !reply.toolCalls.isEmpty()) {
            message.addNull("content");
        } else {
            message.add("content", reply.content);
        }
        if (!reply.toolCalls.isEmpty()) {
            JsonArrayBuilder calls = Json.createArrayBuilder();
            for (ToolCall call : reply.toolCalls) {
                calls.add(Json.createObjectBuilder().add("id", call.id()).add("type", "function")
                        .add("function", Json.createObjectBuilder().add("name", call.name()).add("arguments", call.arguments())));
            }
            message.add("tool_calls", calls);
        }
        return Json.createObjectBuilder().add("id", "chatcmpl-scripted").add("object", "chat.completion")
                .add("created", System.currentTimeMillis() / 1000).add("model", request.getString("model", "scripted"))
                .add("choices", Json.createArrayBuilder().add(Json.createObjectBuilder().add("index", 0).add("message", message)
                        .add("finish_reason", reply.toolCalls.isEmpty() ? "stop" : "tool_calls")))
                .add("usage", USAGE).build();
    }

    private void stream(HttpExchange exchange, JsonObject request, Reply reply) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        String model = request.getString("model", "scripted");
        List<JsonObject> deltas = new ArrayList<>();
        deltas.add(Json.createObjectBuilder().add("role", "assistant").add("content", "").build());
        for (int i = 0; i < reply.content.length(); i += PIECE) {
            deltas.add(Json.createObjectBuilder().add("content", reply.content.substring(i, Math.min(reply.content.length(), i + PIECE))).build());
        }
        if (reply.shape == ToolCallShape.FRAGMENTED) {
            for (int i = 0; i < reply.toolCalls.size(); i++) {
                ToolCall call = reply.toolCalls.get(i);
                deltas.add(toolDelta(Json.createObjectBuilder().add("index", i).add("id", call.id()).add("type", "function")
                        .add("function", Json.createObjectBuilder().add("name", call.name()).add("arguments", ""))));
                for (int p = 0; p < call.arguments().length(); p += PIECE) {
                    deltas.add(toolDelta(Json.createObjectBuilder().add("index", i).add("function", Json.createObjectBuilder()
                            .add("arguments", call.arguments().substring(p, Math.min(call.arguments().length(), p + PIECE))))));
                }
            }
        } else if (!reply.toolCalls.isEmpty()) {
            JsonArrayBuilder calls = Json.createArrayBuilder();
            for (ToolCall call : reply.toolCalls) {
                calls.add(Json.createObjectBuilder().add("id", call.id()).add("type", "function")
                        .add("function", Json.createObjectBuilder().add("name", call.name()).add("arguments", call.arguments())));
            }
            deltas.add(Json.createObjectBuilder().add("tool_calls", calls).build());
        }
        for (JsonObject delta : deltas) {
            chunk(out, model, Json.createObjectBuilder().add("index", 0).add("delta", delta).addNull("finish_reason"), null);
            sleep(reply.chunkDelayMillis);
        }
        String finish = reply.toolCalls.isEmpty() || reply.shape == ToolCallShape.WHOLE ? "stop" : "tool_calls";
        chunk(out, model, Json.createObjectBuilder().add("index", 0).add("delta", JsonValue.EMPTY_JSON_OBJECT).add("finish_reason", finish), null);
        if (request.containsKey("stream_options") && request.getJsonObject("stream_options").getBoolean("include_usage", false)) {
            chunk(out, model, null, USAGE);
        }
        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static JsonObject toolDelta(JsonObjectBuilder call) {
        return Json.createObjectBuilder().add("tool_calls", Json.createArrayBuilder().add(call)).build();
    }

    private static void chunk(OutputStream out, String model, JsonObjectBuilder choice, JsonObject usage) throws IOException {
        JsonObjectBuilder chunk = Json.createObjectBuilder().add("id", "chatcmpl-scripted").add("object", "chat.completion.chunk")
                .add("created", System.currentTimeMillis() / 1000).add("model", model)
                .add("choices", choice == null ? Json.createArrayBuilder() : Json.createArrayBuilder().add(choice));
        if (usage != null) {
            chunk.add("usage", usage);
        }
        out.write(("data: " + chunk.build() + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (contentType != null) {
            exchange.getResponseHeaders().add("Content-Type", contentType);
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
