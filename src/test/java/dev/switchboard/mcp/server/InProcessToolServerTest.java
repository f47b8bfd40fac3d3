package dev.switchboard.mcp.server;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.mcp.client.BackendSpec;
import dev.switchboard.mcp.client.DefaultMcpConnector;
import dev.switchboard.mcp.client.McpClient;
import dev.switchboard.testing.RecordingTraffic;
import dev.switchboard.testing.TestThreads;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Our own MCP client against an in-process tool server: handshake, listing, calls, errors, cancellation, close. */
class InProcessToolServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private TestThreads threads;
    private RecordingTraffic traffic;
    private DefaultMcpConnector connector;
    private final CountDownLatch release = new CountDownLatch(1);

    /**
     * {@code echo} answers at once; {@code wait} holds until the test releases it; {@code broken} throws;
     * {@code steps} reports progress twice when asked to.
     */
    private final InProcessToolServer.Tools tools = new InProcessToolServer.Tools() {
        @Override
        public JsonArray list() {
            return Json.createArrayBuilder()
                    .add(Json.createObjectBuilder().add("name", "echo").add("inputSchema", Json.createObjectBuilder().add("type", "object")))
                    .add(Json.createObjectBuilder().add("name", "wait").add("inputSchema", Json.createObjectBuilder().add("type", "object")))
                    .build();
        }

        @Override
        public boolean has(String name) {
            return List.of("echo", "wait", "broken", "steps").contains(name);
        }

        @Override
        public JsonObject call(String name, JsonObject arguments, InProcessToolServer.Progress progress) {
            if (name.equals("steps") && progress.wanted()) {
                progress.report(1, 2.0, "first");
                progress.report(2, 2.0, "second");
            }
            if (name.equals("broken")) {
                throw new IllegalStateException("secret detail");
            }
            if (name.equals("wait")) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Json.createObjectBuilder().add("content", Json.createArrayBuilder().add(Json.createObjectBuilder()
                    .add("type", "text").add("text", name + " " + arguments))).add("isError", false).build();
        }
    };

    @BeforeEach
    void setUp() {
        threads = new TestThreads();
        traffic = new RecordingTraffic();
        connector = new DefaultMcpConnector(threads.executor(), threads.scheduler(), traffic);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        release.countDown();
        threads.close();
    }

    private McpClient connect() throws McpException {
        return connector.connect(BackendSpec.inProcess(new InProcessToolServer("demo", "1.2.3", tools)), TIMEOUT);
    }

    @Test
    void handshakeListAndCall() throws Exception {
        try (McpClient client = connect()) {
            assertEquals(ProtocolVersions.LATEST, client.initializeResult().protocolVersion());
            assertEquals("demo", client.initializeResult().serverInfo().getString("name"));
            assertTrue(client.initializeResult().capabilities().containsKey("tools"));
            assertEquals(List.of("echo", "wait"), client.listTools(TIMEOUT).stream().map(t -> t.getString("name")).toList());
            JsonObject result = client.callTool("echo", Json.createObjectBuilder().add("x", 1).build(), TIMEOUT, null);
            assertEquals("echo {\"x\":1}", result.getJsonArray("content").getJsonObject(0).getString("text"));
            client.ping(TIMEOUT);
        }
        traffic.assertAllSentValid(ProtocolVersions.LATEST);
    }

    @Test
    void progressReachesTheCallThatAskedForIt() throws Exception {
        try (McpClient client = connect()) {
            List<JsonObject> reports = new CopyOnWriteArrayList<>();
            client.callTool("steps", JsonValue.EMPTY_JSON_OBJECT, TIMEOUT, reports::add);
            assertEquals(List.of("first", "second"), reports.stream().map(r -> r.getString("message")).toList());
            assertEquals(2, reports.get(1).getInt("progress"));
            assertEquals(2, reports.get(1).getInt("total"));
            traffic.clear();
            client.callTool("steps", JsonValue.EMPTY_JSON_OBJECT, TIMEOUT, null);
            assertTrue(traffic.inbound().stream().noneMatch(m -> m.containsKey("method")), "no token, no progress");
        }
    }

    @Test
    void unknownToolBadArgumentsUnknownMethodAndFailureAreJsonRpcErrors() throws Exception {
        try (McpClient client = connect()) {
            McpException unknown = assertThrows(McpException.class, () -> client.callTool("nope", JsonValue.EMPTY_JSON_OBJECT, TIMEOUT, null));
            assertEquals(-32602, unknown.rpcCode());
            assertTrue(unknown.getMessage().contains("Unknown tool: nope"), unknown::getMessage);
            McpException badArguments = assertThrows(McpException.class, () -> client.request("tools/call",
                    Json.createObjectBuilder().add("name", "echo").add("arguments", "text").build(), TIMEOUT, null, null));
            assertEquals(-32602, badArguments.rpcCode());
            McpException method = assertThrows(McpException.class, () -> client.request("prompts/list", null, TIMEOUT, null, null));
            assertEquals(-32601, method.rpcCode());
            McpException broken = assertThrows(McpException.class, () -> client.callTool("broken", JsonValue.EMPTY_JSON_OBJECT, TIMEOUT, null));
            assertEquals(-32603, broken.rpcCode());
            assertFalse(broken.getMessage().contains("secret detail"), "the exception's text stays in the log");
        }
    }

    @Test
    void aTimedOutCallIsCancelledAndItsLateAnswerDropped() throws Exception {
        try (McpClient client = connect()) {
            McpException timeout = assertThrows(McpException.class, () -> client.callTool("wait", JsonValue.EMPTY_JSON_OBJECT,
                    Duration.ofMillis(300), null));
            assertEquals(McpException.Kind.TIMEOUT, timeout.kind());
            // the deadline fails the call first, then tells the server
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (traffic.sent("notifications/cancelled").isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(1, traffic.sent("notifications/cancelled").size());
            release.countDown();
            // the connection goes on; the cancelled call's answer never arrives
            assertEquals("echo {}", client.callTool("echo", JsonValue.EMPTY_JSON_OBJECT, TIMEOUT, null)
                    .getJsonArray("content").getJsonObject(0).getString("text"));
            Thread.sleep(200);
            long answers = traffic.inbound().stream().filter(m -> m.containsKey("result") || m.containsKey("error")).count();
            assertEquals(2, answers, "initialize and echo only: " + traffic.inbound());
        }
    }

    @Test
    void aClosedConnectionRefusesCalls() throws Exception {
        McpClient client = connect();
        client.close();
        McpException closed = assertThrows(McpException.class, () -> client.callTool("echo", JsonValue.EMPTY_JSON_OBJECT, TIMEOUT, null));
        assertEquals(McpException.Kind.CLOSED, closed.kind());
    }
}
