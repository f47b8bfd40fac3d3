package dev.switchboard.mcp.transport;

import com.sun.net.httpserver.HttpExchange;
import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.TrafficListener;
import dev.switchboard.mcp.client.BackendSpec;
import dev.switchboard.platform.json.HostileCorpus;
import dev.switchboard.platform.json.HostileCorpus.Document;
import dev.switchboard.testing.TestThreads;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.switchboard.mcp.transport.TestHttpExchanges.readJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A backend is not trusted: the corpus's hostile documents, sent by a real stdio process (src/test/node/hostile-server.mjs)
 * and by an HTTP server as a JSON body or an SSE event, either fail the call they answer at once with the reason
 * (JSON-RPC -32700 from the stream transports, the transport's protocol error for a JSON body) or are skipped
 * while the session goes on; each costs the client process less than {@link HostileCorpus#CPU_BOUND_NANOS} of CPU.
 */
class HostileBackendTest {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);
    private static final String PREFIX = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":";

    private static final TestThreads threads = new TestThreads();
    private static JsonRpcPeer stdio;
    private static TestMcpEndpoint http;
    private static JsonRpcPeer overHttp;

    @BeforeAll
    static void start() throws Exception {
        Path script = Path.of("src", "test", "node", "hostile-server.mjs").toAbsolutePath();
        stdio = new JsonRpcPeer(new StdioTransport(BackendSpec.stdio("node", List.of(script.toString()), Map.of()), threads.executor()),
                threads.executor(), threads.scheduler(), TrafficListener.NONE);
        stdio.start(Duration.ofSeconds(10));
        http = new TestMcpEndpoint(HostileBackendTest::answer);
        overHttp = http.connect(http.uri(), 4, ReconnectBackoff.DEFAULT);
    }

    @AfterAll
    static void stop() throws Exception {
        stdio.close();
        http.close();
        threads.close();
    }

    static List<Document> answers() {
        return HostileCorpus.text().stream().filter(d -> d.refused() && d.text().startsWith(PREFIX)).toList();
    }

    static List<Document> textCorpus() {
        return HostileCorpus.text();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answers")
    void aHostileAnswerOnStdioFailsItsCallAtOnceWithTheReason(Document document) throws Exception {
        McpException failed = refusedCall(stdio, document, "answer");
        assertEquals(McpException.Kind.RPC_ERROR, failed.kind());
        assertEquals(-32700, failed.rpcCode());
        assertTrue(failed.getMessage().startsWith("tools/call: The peer's answer could not be read: not JSON (")
                && failed.getMessage().contains(document.refusal()), failed.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answers")
    void aHostileAnswerAsAnSseEventFailsItsCallAtOnceWithTheReason(Document document) throws Exception {
        McpException failed = refusedCall(overHttp, document, "sse");
        assertEquals(-32700, failed.rpcCode());
        assertTrue(failed.getMessage().contains(document.refusal()), failed.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answers")
    void aHostileJsonBodyFailsItsCallWithTheReason(Document document) throws Exception {
        McpException failed = refusedCall(overHttp, document, "json");
        assertEquals(McpException.Kind.PROTOCOL, failed.kind());
        assertTrue(failed.getMessage().startsWith("not JSON (") && failed.getMessage().contains(document.refusal()), failed.getMessage());
    }

    /** Whatever a backend sends between answers (as a request of its own, a batch, a bare value) leaves the session usable. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("textCorpus")
    void aHostileMessageBeforeAnAnswerIsSkippedAndTheSessionGoesOn(Document document) throws Exception {
        long before = HostileCorpus.processCpuNanos();
        JsonObject result = stdio.request("tools/call", call(document, "before"), CALL_TIMEOUT, null);
        long cpu = HostileCorpus.processCpuNanos() - before;
        assertEquals("survived " + document.name(), result.getJsonArray("content").getJsonObject(0).getString("text"));
        assertTrue(cpu < HostileCorpus.CPU_BOUND_NANOS, document + " cost " + cpu / 1_000_000 + " ms of CPU");
    }

    private static McpException refusedCall(JsonRpcPeer peer, Document document, String mode) throws Exception {
        long before = HostileCorpus.processCpuNanos();
        long started = System.nanoTime();
        McpException failed = assertThrows(McpException.class, () -> peer.request("tools/call", call(document, mode), CALL_TIMEOUT, null));
        long cpu = HostileCorpus.processCpuNanos() - before;
        assertTrue(System.nanoTime() - started < CALL_TIMEOUT.toNanos() / 2, document + ": the call waited for its timeout");
        assertTrue(cpu < HostileCorpus.CPU_BOUND_NANOS, document + " cost " + cpu / 1_000_000 + " ms of CPU");
        return failed;
    }

    private static JsonObject call(Document document, String mode) {
        return Json.createObjectBuilder().add("name", "hostile")
                .add("arguments", Json.createObjectBuilder().add("doc", document.name()).add("mode", mode)).build();
    }

    /** The HTTP backend: a tools/call is answered with its hostile document as a JSON body or an SSE event. */
    private static void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            JsonObject body = readJson(exchange.getRequestBody());
            if (!body.containsKey("id")) {
                exchange.sendResponseHeaders(202, -1);
                return;
            }
            String id = body.get("id").toString();
            JsonObject args = body.getJsonObject("params").getJsonObject("arguments");
            if (args == null) {
                TestHttpExchanges.respond(exchange, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}");
                return;
            }
            Document document = HostileCorpus.named(args.getString("doc"));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            boolean sse = args.getString("mode").equals("sse");
            out.writeBytes((sse ? "event: message\ndata: " : "").getBytes(StandardCharsets.UTF_8));
            out.writeBytes(("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":").getBytes(StandardCharsets.UTF_8));
            out.writeBytes(document.text().substring(PREFIX.length()).getBytes(StandardCharsets.UTF_8));
            out.writeBytes((sse ? "\n\n" : "").getBytes(StandardCharsets.UTF_8));
            byte[] bytes = out.toByteArray();
            exchange.getResponseHeaders().add("Content-Type", sse ? "text/event-stream" : "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

}
