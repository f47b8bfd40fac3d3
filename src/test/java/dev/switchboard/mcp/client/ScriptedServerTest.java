package dev.switchboard.mcp.client;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.testing.RecordingTraffic;
import dev.switchboard.testing.ScriptedServer;
import dev.switchboard.testing.TestThreads;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Protocol behaviour server-everything cannot show, against the scripted stdio server. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScriptedServerTest {

    private static final Duration CONNECT = Duration.ofSeconds(10);
    private static final Duration CALL = Duration.ofSeconds(5);

    private TestThreads threads;
    private RecordingTraffic traffic;
    private DefaultMcpConnector connector;

    @BeforeAll
    void startThreads() {
        threads = new TestThreads();
    }

    @AfterAll
    void stopThreads() throws InterruptedException {
        threads.close();
    }

    @BeforeEach
    void newConnector() {
        traffic = new RecordingTraffic();
        connector = new DefaultMcpConnector(threads.executor(), threads.scheduler(), traffic);
    }

    @Test
    void listToolsFollowsEveryCursor() throws Exception {
        try (McpClient client = connector.connect(ScriptedServer.spec(), CONNECT)) {
            List<String> names = client.listTools(CALL).stream().map(t -> t.getString("name")).toList();
            assertEquals(List.of("alpha", "beta", "gamma", "delta"), names);
            List<JsonObject> requests = traffic.sent("tools/list");
            assertEquals(3, requests.size());
            assertFalse(requests.get(0).getJsonObject("params").containsKey("cursor"));
            assertEquals("p2", requests.get(1).getJsonObject("params").getString("cursor"));
            assertEquals("p3", requests.get(2).getJsonObject("params").getString("cursor"));
        }
        traffic.assertAllSentValid(ProtocolVersions.LATEST);
    }

    @Test
    void toolsListChangedReachesTheListener() throws Exception {
        try (McpClient client = connector.connect(ScriptedServer.spec(), CONNECT)) {
            CountDownLatch changed = new CountDownLatch(1);
            client.onToolsListChanged(changed::countDown);
            client.callTool("change", null, CALL, null);
            assertTrue(changed.await(5, TimeUnit.SECONDS));
            assertEquals(5, client.listTools(CALL).size());
        }
    }

    @Test
    void withoutAHandlerServerRequestsArePingedBackRefusedOrGetNoRoots() throws Exception {
        try (McpClient client = connector.connect(ScriptedServer.spec(), CONNECT)) {
            JsonArray answers = textAsArray(client.callTool("ask", null, CALL, null));
            assertEquals(Json.createObjectBuilder().build(), answers.getJsonObject(0).getJsonObject("result"));
            assertEquals(-32601, answers.getJsonObject(1).getJsonObject("error").getInt("code"));
            assertEquals(0, answers.getJsonObject(2).getJsonObject("result").getJsonArray("roots").size());
        }
        traffic.assertAllSentValid(ProtocolVersions.LATEST);
    }

    @Test
    void serverRequestsDuringACallGoToItsHandlerAndItsAnswersBackUnderTheServersIds() throws Exception {
        try (McpClient client = connector.connect(ScriptedServer.spec(), CONNECT)) {
            List<String> handled = new CopyOnWriteArrayList<>();
            ServerRequestHandler handler = (method, params) -> {
                handled.add(method);
                return "roots/list".equals(method)
                        ? CompletableFuture.completedFuture(Json.createObjectBuilder().add("roots", Json.createArrayBuilder()
                                .add(Json.createObjectBuilder().add("uri", "file:///work").add("name", "work"))).build())
                        : CompletableFuture.failedFuture(McpException.rpcError(-1, "User rejected sampling", null));
            };
            JsonArray answers = textAsArray(client.request("tools/call", Json.createObjectBuilder().add("name", "ask").build(),
                    CALL, null, handler));
            assertEquals(Json.createObjectBuilder().build(), answers.getJsonObject(0).getJsonObject("result"), "ping stays local");
            assertEquals(-1, answers.getJsonObject(1).getJsonObject("error").getInt("code"));
            assertEquals("User rejected sampling", answers.getJsonObject(1).getJsonObject("error").getString("message"));
            assertEquals("file:///work", answers.getJsonObject(2).getJsonObject("result").getJsonArray("roots")
                    .getJsonObject(0).getString("uri"));
            assertEquals(Set.of("sampling/createMessage", "roots/list"), Set.copyOf(handled));
        }
        traffic.assertAllSentValid(ProtocolVersions.LATEST);
    }

    @Test
    void interruptingTheCallerCancelsTheRequestAtTheServer() throws Exception {
        try (McpClient client = connector.connect(ScriptedServer.spec(), CONNECT)) {
            AtomicReference<Thread> caller = new AtomicReference<>();
            CompletableFuture<McpException> hung = CompletableFuture.supplyAsync(() -> {
                caller.set(Thread.currentThread());
                try {
                    client.callTool("hang", null, Duration.ofSeconds(20), null);
                    return null;
                } catch (McpException e) {
                    return e;
                }
            }, threads.executor());
            awaitSent("tools/call");
            caller.get().interrupt();
            assertEquals(McpException.Kind.CANCELLED, hung.get(3, TimeUnit.SECONDS).kind());

            JsonArray cancelledAtServer = textAsArray(client.callTool("cancelled", null, CALL, null));
            assertEquals(1, cancelledAtServer.size());
            JsonObject hangCall = traffic.sent("tools/call").get(0);
            assertEquals(hangCall.get("id"), cancelledAtServer.getJsonObject(0).get("requestId"));
        }
        traffic.assertAllSentValid(ProtocolVersions.LATEST);
    }

    @Test
    void aLateAnswerAfterTheDeadlineIsDropped() throws Exception {
        try (McpClient client = connector.connect(ScriptedServer.spec(), CONNECT)) {
            McpException e = assertThrows(McpException.class, () -> client.callTool("late", null, Duration.ofMillis(200), null));
            assertEquals(McpException.Kind.TIMEOUT, e.kind());
            Thread.sleep(800);
            client.ping(CALL);
            JsonArray cancelled = textAsArray(client.callTool("cancelled", null, CALL, null));
            assertEquals(1, cancelled.size());
            assertTrue(cancelled.getJsonObject(0).getString("reason").startsWith("timeout"));
        }
    }

    @Test
    void processDyingMidCallFailsThePendingCallAndReportsTheLoss() throws Exception {
        McpClient client = connector.connect(ScriptedServer.spec(), CONNECT);
        CompletableFuture<Throwable> lost = new CompletableFuture<>();
        client.onConnectionLost(lost::complete);
        long started = System.nanoTime();
        McpException e = assertThrows(McpException.class, () -> client.callTool("exit", null, Duration.ofSeconds(10), null));
        assertEquals(McpException.Kind.CLOSED, e.kind());
        assertTrue(e.getMessage().contains("exited with code 3"), e::getMessage);
        assertTrue((System.nanoTime() - started) / 1_000_000 < 2_000);
        assertTrue(lost.get(2, TimeUnit.SECONDS) instanceof McpException);
        assertFalse(client.isOpen());
        assertEquals(McpException.Kind.CLOSED, assertThrows(McpException.class, () -> client.ping(CALL)).kind());
        client.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-06-18", "2025-03-26", "2024-11-05"})
    void olderProtocolVersionsAreAcceptedAndSpokenValidly(String version) throws Exception {
        try (McpClient client = connector.connect(ScriptedServer.spec(version), CONNECT)) {
            assertEquals(version, client.initializeResult().protocolVersion());
            client.listTools(CALL);
            client.callTool("ask", null, CALL, null);
            client.ping(CALL);
            assertThrows(McpException.class, () -> client.callTool("late", null, Duration.ofMillis(100), null));
            awaitSent("notifications/cancelled");
        }
        traffic.assertAllSentValid(version);
    }

    private void awaitSent(String method) throws InterruptedException {
        for (int i = 0; i < 150 && traffic.sent(method).isEmpty(); i++) {
            Thread.sleep(20);
        }
        assertFalse(traffic.sent(method).isEmpty(), method + " never sent");
    }

    private static JsonArray textAsArray(JsonObject callResult) {
        String text = callResult.getJsonArray("content").getJsonObject(0).getString("text");
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readArray();
        }
    }
}
