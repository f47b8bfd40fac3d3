package dev.switchboard.mcp.transport;

import com.sun.net.httpserver.HttpExchange;
import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;
import dev.switchboard.testing.TestThreads;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.switchboard.mcp.transport.TestHttpExchanges.readJson;
import static dev.switchboard.mcp.transport.TestHttpExchanges.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the Streamable HTTP transport's exchanges run on {@link BackendHttpClient}: a POST the backend never answered is
 * not sent again, the connection limit per backend holds (calls beyond it wait), and a read blocked on an answer stream
 * ends when the connection is closed, the caller's thread is interrupted or the request's deadline passes.
 */
class StreamableHttpExchangeTest {

    private final List<JsonObject> notifications = new CopyOnWriteArrayList<>();
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger maxConcurrent = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);
    private TestMcpEndpoint endpoint;
    private TestThreads threads;
    private JsonRpcPeer peer;

    @BeforeEach
    void start() throws IOException {
        endpoint = new TestMcpEndpoint(this::mcp);
        threads = endpoint.threads();
    }

    @AfterEach
    void stop() throws InterruptedException {
        release.countDown();
        endpoint.close();
    }

    @Test
    void aPostTheBackendDroppedIsNotSentAgain() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        try (ServerSocket dropping = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            threads.executor().execute(() -> resetEveryConnection(dropping, requests));
            connect(URI.create("http://127.0.0.1:" + dropping.getLocalPort() + "/mcp"), 4);

            McpException e = assertThrows(McpException.class,
                    () -> peer.request("tools/call", null, Duration.ofSeconds(3), null));
            assertEquals(McpException.Kind.CLOSED, e.kind(), e::getMessage);
            Thread.sleep(500);
            assertEquals(1, requests.get(), "the backend saw the call at most once");
        }
    }

    @Test
    void callsBeyondTheConnectionLimitWaitForAConnection() throws Exception {
        connect(endpoint.uri(), 2);
        List<CompletableFuture<JsonObject>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return peer.request("slow", null, Duration.ofSeconds(10), null);
                } catch (McpException e) {
                    throw new IllegalStateException(e);
                }
            }, threads.executor()));
        }
        for (CompletableFuture<JsonObject> call : calls) {
            assertEquals("slow", call.get(10, TimeUnit.SECONDS).getString("done"));
        }
        assertEquals(2, maxConcurrent.get(), "at most two exchanges with the backend at once");
    }

    @Test
    void closingTheConnectionEndsABlockedRead() throws Exception {
        connect(endpoint.uri(), 4);
        HangingCall call = HangingCall.start(peer);

        peer.close();
        McpException e = assertInstanceOf(McpException.class, call.outcome().get(3, TimeUnit.SECONDS));
        assertEquals(McpException.Kind.CLOSED, e.kind(), e::getMessage);
    }

    @Test
    void interruptingTheCallerEndsABlockedReadAndCancelsAtTheBackend() throws Exception {
        connect(endpoint.uri(), 4);
        HangingCall call = HangingCall.start(peer);

        call.thread().interrupt();
        McpException e = assertInstanceOf(McpException.class, call.outcome().get(3, TimeUnit.SECONDS));
        assertEquals(McpException.Kind.CANCELLED, e.kind(), e::getMessage);
        awaitCancelledNotification();
        assertTrue(peer.isOpen(), "a cancelled call leaves the session open");
        peer.request("ping", null, Duration.ofSeconds(3), null);
    }

    @Test
    void theDeadlineEndsABlockedReadAndKeepsTheSession() throws Exception {
        connect(endpoint.uri(), 4);
        long started = System.nanoTime();
        McpException e = assertThrows(McpException.class,
                () -> peer.request("hang", null, Duration.ofMillis(700), progress -> { }));
        assertEquals(McpException.Kind.TIMEOUT, e.kind(), e::getMessage);
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(3), "returned at the deadline");
        awaitCancelledNotification();
        assertTrue(peer.isOpen(), "a timed-out call leaves the session open");
        peer.request("ping", null, Duration.ofSeconds(3), null);
    }

    @Test
    void aStreamKeptOpenAfterItsAnswerDoesNotHoldTheCaller() throws Exception {
        connect(endpoint.uri(), 4);
        long started = System.nanoTime();
        JsonObject result = peer.request("lingering", null, Duration.ofSeconds(20), null);
        assertEquals("lingering", result.getString("done"));
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(3),
                "answered within the grace after the response, not at the 20 s deadline");
        assertTrue(peer.isOpen(), "the session stays usable");
        peer.request("ping", null, Duration.ofSeconds(3), null);
    }

    private void connect(URI uri, int maxPerBackend) throws McpException {
        peer = endpoint.connect(uri, maxPerBackend, ReconnectBackoff.DEFAULT);
    }

    private void awaitCancelledNotification() throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (notifications.stream().noneMatch(n -> "notifications/cancelled".equals(n.getString("method")))) {
            assertTrue(System.nanoTime() < end, "notifications/cancelled reached the backend");
            Thread.sleep(20);
        }
    }

    private void mcp(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(exchange.getRequestMethod().equals("DELETE") ? 200 : 405, -1);
                return;
            }
            JsonObject body = readJson(exchange.getRequestBody());
            if (!body.containsKey("id")) {
                notifications.add(body);
                exchange.sendResponseHeaders(202, -1);
                return;
            }
            String id = body.get("id").toString();
            switch (body.getString("method")) {
                case "slow" -> answerSlowly(exchange, id);
                case "hang" -> hang(exchange, body);
                case "lingering" -> answerAndLinger(exchange, id);
                default -> respond(exchange, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}");
            }
        }
    }

    private void answerSlowly(HttpExchange exchange, String id) throws IOException {
        int now = concurrent.incrementAndGet();
        maxConcurrent.accumulateAndGet(now, Math::max);
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            concurrent.decrementAndGet();
        }
        respond(exchange, "text/event-stream",
                "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"done\":\"slow\"}}\n\n");
    }

    /** Sends the response on the answer stream and then keeps the stream open, as the protocol asks servers not to. */
    private void answerAndLinger(HttpExchange exchange, String id) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        out.write(("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"done\":\"lingering\"}}\n\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Opens the answer stream, sends one progress notification and then nothing until the test ends. */
    private void hang(HttpExchange exchange, JsonObject body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        JsonObject meta = body.getJsonObject("params") == null ? null : body.getJsonObject("params").getJsonObject("_meta");
        JsonValue token = meta == null ? null : meta.get("progressToken");
        if (token != null) {
            out.write(("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
                    + "{\"progressToken\":" + token + ",\"progress\":1}}\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A backend that reads a request and resets the connection without answering. */
    private static void resetEveryConnection(ServerSocket server, AtomicInteger requests) {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                socket.setSoTimeout(2_000);
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[8192];
                if (in.read(buffer) > 0) {
                    requests.incrementAndGet();
                }
                socket.setSoLinger(true, 0);
            } catch (IOException e) {
                // closed at the end of the test, or a client gone: either way nothing to answer
            }
        }
    }
}
