package dev.switchboard.mcp.transport;

import com.sun.net.httpserver.HttpExchange;
import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static dev.switchboard.mcp.transport.TestHttpExchanges.readJson;
import static dev.switchboard.mcp.transport.TestHttpExchanges.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resumable streams of the Streamable HTTP transport (2025-11-25) against a scripted server (the JDK's HttpServer):
 * the GET stream is reopened with {@code Last-Event-ID} when the server ends it or it breaks, but not after 405 or
 * close, and 404 loses the session; a request's answer stream that ends after an event id (SSE polling) is read on
 * from GET streams until the response; one stopped on purpose is not.
 */
class StreamableHttpResumptionTest {

    /** Reopenings in tests: 50 ms apart, three attempts. */
    private static final ReconnectBackoff FAST = new ReconnectBackoff(Duration.ofMillis(50), 1, Duration.ofMillis(50), 3);
    private static final String SESSION = "session-7";

    /** One scripted answer of the server to a request (a POST's, or the last POST's for a GET resuming its stream). */
    @FunctionalInterface
    private interface Script {
        void answer(HttpExchange exchange, JsonObject request) throws IOException;
    }

    private final BlockingQueue<Script> getScripts = new LinkedBlockingQueue<>();
    private final BlockingQueue<Script> postScripts = new LinkedBlockingQueue<>();
    /** The {@code Last-Event-ID} of every GET, "" when it had none. */
    private final List<String> getsResumingAfter = new CopyOnWriteArrayList<>();
    /** The {@code traceparent} of every GET, "" when it had none. */
    private final List<String> getTraces = new CopyOnWriteArrayList<>();
    private final BlockingQueue<JsonObject> notifications = new LinkedBlockingQueue<>();
    private final CountDownLatch release = new CountDownLatch(1);
    /** The body of the last POST, for GET scripts that answer its request. */
    private volatile JsonObject lastPost;
    private TestMcpEndpoint endpoint;
    private JsonRpcPeer peer;

    @BeforeEach
    void start() throws IOException {
        endpoint = new TestMcpEndpoint(this::mcp);
    }

    @AfterEach
    void stop() throws InterruptedException {
        release.countDown();
        endpoint.close();
    }

    @Test
    void aGetStreamTheServerEndsIsReopenedAfterItsLastEvent() throws Exception {
        getScripts.add(stream(Ending.ENDS, event("g1", "retry: 50\n", notification("first"))));
        getScripts.add(stream(Ending.STAYS_OPEN, event("g2", notification("second"))));
        listen();

        assertEquals("first", nextNotification());
        assertEquals("second", nextNotification());
        assertEquals(List.of("", "g1"), getsResumingAfter);
        assertTrue(peer.isOpen());
    }

    @Test
    void aBrokenGetStreamIsReopened() throws Exception {
        getScripts.add(stream(Ending.BREAKS, event("g1", notification("before"))));
        getScripts.add(stream(Ending.STAYS_OPEN, event("g2", notification("after"))));
        listen();

        assertEquals("before", nextNotification());
        assertEquals("after", nextNotification());
        assertEquals(List.of("", "g1"), getsResumingAfter);
        assertTrue(peer.isOpen(), "a stream that could be reopened did not lose the session");
    }

    @Test
    void methodNotAllowedOnReopeningStopsListening() throws Exception {
        getScripts.add(stream(Ending.ENDS, event("g1", notification("only"))));
        getScripts.add((exchange, request) -> exchange.sendResponseHeaders(405, -1));
        listen();

        assertEquals("only", nextNotification());
        Thread.sleep(500);
        assertEquals(List.of("", "g1"), getsResumingAfter, "not asked again after 405");
        assertTrue(peer.isOpen(), "no stream is no failure");
        peer.request("ping", null, Duration.ofSeconds(3), null);
    }

    @Test
    void notFoundOnReopeningLosesTheSession() throws Exception {
        getScripts.add(stream(Ending.ENDS, event("g1", notification("only"))));
        getScripts.add((exchange, request) -> exchange.sendResponseHeaders(404, -1));
        CompletableFuture<McpException> lost = new CompletableFuture<>();
        connect();
        peer.onConnectionLost(lost::complete);
        endpoint.transport().initialized("2025-11-25");

        McpException cause = lost.get(3, TimeUnit.SECONDS);
        assertTrue(cause.getMessage().contains("session expired"), cause::getMessage);
        assertFalse(peer.isOpen());
    }

    @Test
    void closingStopsReopening() throws Exception {
        getScripts.add(stream(Ending.ENDS, event("g1", "retry: 300\n", notification("only"))));
        listen();

        assertEquals("only", nextNotification());
        peer.close();
        Thread.sleep(600);
        assertEquals(List.of(""), getsResumingAfter, "no GET after close");
    }

    @Test
    void anAnswerStreamEndedAfterItsPrimingEventIsReadOnFromGetStreams() throws Exception {
        // SSE polling: the server ends every stream after a while and the client resumes it, here twice
        postScripts.add(stream(Ending.ENDS, event("p1", "retry: 50\n", request -> ""), event("p2", progress(1))));
        getScripts.add(stream(Ending.ENDS, event("p3", progress(2))));
        // kept open after the response, as the protocol asks servers not to: the grace after it still applies
        getScripts.add(stream(Ending.STAYS_OPEN, event("p4", response("polled"))));
        connect();
        List<JsonObject> progress = new CopyOnWriteArrayList<>();

        long started = System.nanoTime();
        JsonObject result = peer.request("poll", null, Duration.ofSeconds(10), progress::add);
        assertEquals("polled", result.getString("done"));
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(3), "answered at once, not at the deadline");
        assertEquals(List.of(1, 2), progress.stream().map(p -> p.getInt("progress")).toList());
        assertEquals(List.of("p2", "p3"), getsResumingAfter);
        assertTrue(peer.isOpen());
    }

    @Test
    void aBrokenAnswerStreamIsResumedAfterItsLastCompleteEvent() throws Exception {
        // the second event is cut in the middle: its id must not count as seen
        postScripts.add(stream(Ending.BREAKS, event("p1", progress(1)), cutOff("p2", "{\"jsonrpc\"")));
        getScripts.add(stream(Ending.ENDS, event("p2", progress(2)), event("p3", response("resumed"))));
        connect();
        List<JsonObject> progress = new CopyOnWriteArrayList<>();

        JsonObject result = peer.request("work", null, Duration.ofSeconds(10), progress::add);
        assertEquals("resumed", result.getString("done"));
        assertEquals(List.of(1, 2), progress.stream().map(p -> p.getInt("progress")).toList());
        assertEquals(List.of("p1"), getsResumingAfter);
        assertTrue(peer.isOpen(), "a resumed stream did not lose the session");
    }

    @Test
    void aResumingGetCarriesTheTraceOfItsRequest() throws Exception {
        postScripts.add(stream(Ending.ENDS, event("p1", "retry: 50\n", request -> "")));
        getScripts.add(stream(Ending.ENDS, event("p2", response("traced"))));
        connect();
        String trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

        JsonObject result = RequestHeaders.with(Map.of("traceparent", trace),
                () -> peer.request("work", null, Duration.ofSeconds(10), null));
        assertEquals("traced", result.getString("done"));
        assertEquals(List.of(trace), getTraces);
    }

    @Test
    void anAnswerStreamWithoutEventIdsIsNotResumed() throws Exception {
        postScripts.add(stream(Ending.ENDS, event(null, progress(1))));
        connect();

        McpException e = assertThrows(McpException.class,
                () -> peer.request("work", null, Duration.ofSeconds(5), progress -> { }));
        assertEquals(McpException.Kind.CLOSED, e.kind(), e::getMessage);
        assertTrue(e.getMessage().contains("ended before the response"), e::getMessage);
        assertEquals(List.of(), getsResumingAfter);
    }

    @Test
    void resumingAnAnswerStreamStopsAtMethodNotAllowed() throws Exception {
        postScripts.add(stream(Ending.ENDS, event("p1", request -> "")));
        getScripts.add((exchange, body) -> exchange.sendResponseHeaders(405, -1));
        connect();

        McpException e = assertThrows(McpException.class, () -> peer.request("work", null, Duration.ofSeconds(5), null));
        assertEquals(McpException.Kind.CLOSED, e.kind(), e::getMessage);
        assertTrue(e.getMessage().contains("405"), e::getMessage);
        assertEquals(List.of("p1"), getsResumingAfter);
        assertTrue(peer.isOpen(), "a stream the server ended loses only its request");
    }

    @Test
    void aCancelledRequestIsNotResumed() throws Exception {
        postScripts.add(stream(Ending.STAYS_OPEN, event("p1", progress(1))));
        connect();
        HangingCall call = HangingCall.start(peer);

        call.thread().interrupt();
        McpException e = assertInstanceOf(McpException.class, call.outcome().get(3, TimeUnit.SECONDS));
        assertEquals(McpException.Kind.CANCELLED, e.kind(), e::getMessage);
        Thread.sleep(300);
        assertEquals(List.of(), getsResumingAfter, "a cancelled request's stream is not resumed");
        assertTrue(peer.isOpen());
    }

    @Test
    void aRequestPastItsDeadlineIsNotResumed() throws Exception {
        postScripts.add(stream(Ending.STAYS_OPEN, event("p1", progress(1))));
        connect();

        McpException e = assertThrows(McpException.class,
                () -> peer.request("work", null, Duration.ofMillis(500), progress -> { }));
        assertEquals(McpException.Kind.TIMEOUT, e.kind(), e::getMessage);
        Thread.sleep(300);
        assertEquals(List.of(), getsResumingAfter, "a timed-out request's stream is not resumed");
    }

    @Test
    void closingStopsResumingAnAnswerStream() throws Exception {
        postScripts.add(stream(Ending.ENDS, event("p1", "retry: 400\n", request -> "")));
        connect();
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                peer.request("work", null, Duration.ofSeconds(10), null);
                return null;
            } catch (McpException e) {
                return e;
            }
        }, endpoint.threads().executor());
        Thread.sleep(150);

        long closing = System.nanoTime();
        peer.close();
        McpException e = assertInstanceOf(McpException.class, outcome.get(3, TimeUnit.SECONDS));
        assertEquals(McpException.Kind.CLOSED, e.kind(), e::getMessage);
        assertTrue(System.nanoTime() - closing < TimeUnit.MILLISECONDS.toNanos(300), "not at the server's retry");
        Thread.sleep(500);
        assertEquals(List.of(), getsResumingAfter, "no GET after close");
    }

    private void connect() throws McpException {
        peer = endpoint.connect(endpoint.uri(), 8, FAST);
        peer.onNotification("notifications/message", notifications::add);
        // the answer opens the session, as initialize's would
        peer.request("ping", null, Duration.ofSeconds(3), null);
    }

    /** Connects and opens the GET stream, as the end of the handshake does. */
    private void listen() throws McpException {
        connect();
        endpoint.transport().initialized("2025-11-25");
    }

    private String nextNotification() throws InterruptedException {
        JsonObject params = notifications.poll(5, TimeUnit.SECONDS);
        assertNotNull(params, "notification delivered");
        return params.getString("data");
    }

    private void mcp(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        if (method.equals("DELETE")) {
            try (exchange) {
                exchange.sendResponseHeaders(200, -1);
            }
            return;
        }
        if (method.equals("GET")) {
            String lastEventId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
            getsResumingAfter.add(lastEventId == null ? "" : lastEventId);
            String trace = exchange.getRequestHeaders().getFirst("traceparent");
            getTraces.add(trace == null ? "" : trace);
            answer(getScripts.poll(), exchange, lastPost);
            return;
        }
        JsonObject body = readJson(exchange.getRequestBody());
        if (!body.containsKey("id")) {
            try (exchange) {
                exchange.sendResponseHeaders(202, -1);
            }
        } else if (body.getString("method").equals("ping")) {
            try (exchange) {
                exchange.getResponseHeaders().add("Mcp-Session-Id", SESSION);
                respond(exchange, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":" + body.get("id") + ",\"result\":{}}");
            }
        } else {
            lastPost = body;
            answer(postScripts.poll(), exchange, body);
        }
    }

    /** Runs a script; one that returns without closing the exchange ends its stream cleanly. Without one: 405. */
    private static void answer(Script script, HttpExchange exchange, JsonObject request) throws IOException {
        if (script == null) {
            try (exchange) {
                exchange.sendResponseHeaders(405, -1);
            }
            return;
        }
        script.answer(exchange, request);
        exchange.close();
    }

    /** How a scripted SSE stream ends after its events. */
    private enum Ending { ENDS, BREAKS, STAYS_OPEN }

    /**
     * One SSE event; {@code fields} are extra lines such as {@code retry}, {@code data} is made from the request, and an
     * event that is not {@code complete} lacks its closing blank line, as a connection cut in its middle leaves it.
     */
    private record Sent(String id, String fields, Function<JsonObject, String> data, boolean complete) {
    }

    private static Sent event(String id, Function<JsonObject, String> data) {
        return new Sent(id, "", data, true);
    }

    private static Sent event(String id, String fields, Function<JsonObject, String> data) {
        return new Sent(id, fields, data, true);
    }

    private static Sent cutOff(String id, String partialData) {
        return new Sent(id, "", request -> partialData, false);
    }

    /** A script that opens an SSE stream, sends {@code events} and ends as told. */
    private Script stream(Ending ending, Sent... events) {
        return (exchange, request) -> {
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            for (Sent event : events) {
                String text = (event.id() == null ? "" : "id: " + event.id() + "\n") + event.fields()
                        + "event: message\ndata: " + event.data().apply(request) + (event.complete() ? "\n\n" : "");
                out.write(text.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            switch (ending) {
                case ENDS -> { }
                case BREAKS -> breakConnection();
                case STAYS_OPEN -> hold();
            }
        };
    }

    private static Function<JsonObject, String> notification(String data) {
        return request -> "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\""
                + data + "\"}}";
    }

    private static Function<JsonObject, String> progress(int progress) {
        return request -> "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
                + request.getJsonObject("params").getJsonObject("_meta").get("progressToken") + ",\"progress\":" + progress + "}}";
    }

    private static Function<JsonObject, String> response(String done) {
        return request -> "{\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + ",\"result\":{\"done\":\"" + done + "\"}}";
    }

    /**
     * Ends the exchange without the end of its chunked body: the JDK's HttpServer closes the connection when a handler
     * throws, which the client reads as a broken stream.
     */
    private static void breakConnection() {
        throw new UncheckedIOException(new IOException("connection broken on purpose"));
    }

    private void hold() {
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
