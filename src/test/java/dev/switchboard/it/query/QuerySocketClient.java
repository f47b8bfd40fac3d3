package dev.switchboard.it.query;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A client of seed 000's dialect over the {@code /mcp} WebSocket (the JDK's WebSocket, no token at the handshake:
 * the dialect authenticates in-band), answers matched to requests by id.
 */
final class QuerySocketClient implements AutoCloseable {

    private final WebSocket socket;
    private final BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
    private final AtomicInteger ids = new AtomicInteger();
    /** Messages read while waiting for another answer (notifications, answers to other requests). */
    final List<JsonObject> other = new ArrayList<>();
    /** The close code and reason the server closed the socket with ("1013 too_many_connections"). */
    final CompletableFuture<String> closedByServer = new CompletableFuture<>();

    QuerySocketClient() {
        socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create(Api.BASE.replaceFirst("^http", "ws") + "/mcp"), new WebSocket.Listener() {
                    private final StringBuilder text = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        text.append(data);
                        if (last) {
                            try (var reader = Json.createReader(new StringReader(text.toString()))) {
                                received.add(reader.readObject());
                            }
                            text.setLength(0);
                        }
                        webSocket.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        closedByServer.complete(statusCode + " " + reason);
                        return null;
                    }
                }).join();
    }

    String send(String method, JsonObject params) {
        String id = method + "-" + ids.incrementAndGet();
        sendText(Json.createObjectBuilder().add("type", "request").add("id", id).add("method", method)
                .add("params", params).build().toString());
        return id;
    }

    /** Any text as one message (the limits' tests build oversized ones). */
    void sendText(String text) {
        socket.sendText(text, true).join();
    }

    /** The next message that matches, waiting up to {@code seconds}; the others are kept in {@link #other}. */
    JsonObject await(Predicate<JsonObject> wanted, long seconds) throws InterruptedException {
        for (JsonObject m : List.copyOf(other)) {
            if (wanted.test(m)) {
                other.remove(m);
                return m;
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            JsonObject m = received.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (m == null) {
                throw new AssertionError("nothing wanted arrived within " + seconds + " s; other messages: " + other);
            }
            if (wanted.test(m)) {
                return m;
            }
            other.add(m);
        }
    }

    JsonObject call(String method, JsonObject params) throws InterruptedException {
        String id = send(method, params);
        return await(m -> m.containsKey("id") && m.get("id").toString().equals("\"" + id + "\""), 30);
    }

    JsonObject result(String method, JsonObject params) throws InterruptedException {
        JsonObject answer = call(method, params);
        if (!answer.containsKey("result")) {
            throw new AssertionError(method + " failed: " + answer);
        }
        return answer.getJsonObject("result");
    }

    /** Closes from our side; a socket the server closed meanwhile (a refused connection) needs nothing more. */
    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            try {
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
            } catch (java.util.concurrent.CompletionException e) {
                if (!(e.getCause() instanceof java.io.IOException) || !socket.isOutputClosed()) {
                    throw e;
                }
            }
        }
    }
}
