package dev.switchboard.mcp.client;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.testing.RecordingTraffic;
import dev.switchboard.testing.ServerEverything;
import dev.switchboard.testing.ServerEverything.Mode;
import dev.switchboard.testing.TestThreads;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The connector and client against the official server-everything, over all three transports. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerEverythingClientTest {

    private static final Duration CONNECT = Duration.ofSeconds(15);
    private static final Duration CALL = Duration.ofSeconds(10);

    private final Map<Mode, ServerEverything> httpServers = new EnumMap<>(Mode.class);
    private TestThreads threads;
    private RecordingTraffic traffic;
    private DefaultMcpConnector connector;

    @BeforeAll
    void startServers() {
        threads = new TestThreads();
        httpServers.put(Mode.SSE, ServerEverything.start(Mode.SSE));
        httpServers.put(Mode.STREAMABLE_HTTP, ServerEverything.start(Mode.STREAMABLE_HTTP));
    }

    @AfterAll
    void stopServers() throws InterruptedException {
        httpServers.values().forEach(ServerEverything::close);
        ServerEverything.killAll();
        threads.close();
    }

    @BeforeEach
    void newConnector() {
        traffic = new RecordingTraffic();
        connector = new DefaultMcpConnector(threads.executor(), threads.scheduler(), traffic);
    }

    private BackendSpec spec(Mode mode) {
        if (mode == Mode.STDIO) {
            return ServerEverything.stdioSpec();
        }
        ServerEverything server = httpServers.get(mode);
        if (!server.isAlive()) {
            server.restart();
        }
        return server.spec();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void initializesListsAndCallsTools(Mode mode) throws Exception {
        try (McpClient client = connector.connect(spec(mode), CONNECT)) {
            InitializeResult init = client.initializeResult();
            assertEquals(ProtocolVersions.LATEST, init.protocolVersion());
            assertEquals("mcp-servers/everything", init.serverInfo().getString("name"));

            List<String> names = client.listTools(CALL).stream().map(t -> t.getString("name")).toList();
            assertTrue(names.containsAll(List.of("echo", "trigger-long-running-operation")), names::toString);

            JsonObject echoed = client.callTool("echo", Json.createObjectBuilder().add("message", "hi " + mode).build(), CALL, null);
            assertTrue(echoed.toString().contains("hi " + mode), echoed::toString);

            List<JsonObject> progress = new CopyOnWriteArrayList<>();
            JsonObject done = client.callTool("trigger-long-running-operation",
                    Json.createObjectBuilder().add("duration", 0.6).add("steps", 3).build(), CALL, progress::add);
            assertTrue(done.toString().contains("completed"), done::toString);
            assertEquals(3, progress.size(), progress::toString);
            assertEquals(3, progress.get(2).getInt("progress"));

            client.ping(CALL);
            assertTrue(client.isOpen());
        }
        traffic.assertAllSentValid(ProtocolVersions.LATEST);
        assertEquals(1, traffic.sent("notifications/initialized").size());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void deadlineCancelsTheCallAndTheSessionStaysUsable(Mode mode) throws Exception {
        try (McpClient client = connector.connect(spec(mode), CONNECT)) {
            long started = System.nanoTime();
            McpException timeout = assertThrows(McpException.class, () -> client.callTool("trigger-long-running-operation",
                    Json.createObjectBuilder().add("duration", 5).add("steps", 5).build(), Duration.ofMillis(400), null));
            assertEquals(McpException.Kind.TIMEOUT, timeout.kind());
            assertTrue(elapsedMillis(started) < 2_000, "timed out late");

            JsonObject call = traffic.sent("tools/call").get(0);
            JsonObject cancelled = awaitSent("notifications/cancelled");
            assertEquals(call.get("id"), cancelled.getJsonObject("params").get("requestId"));

            JsonObject echoed = client.callTool("echo", Json.createObjectBuilder().add("message", "still here").build(), CALL, null);
            assertTrue(echoed.toString().contains("still here"));
        }
        traffic.assertAllSentValid(ProtocolVersions.LATEST);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void backendKilledMidCallFailsTheCallPromptly(Mode mode) throws Exception {
        McpClient client = connector.connect(spec(mode), CONNECT);
        CompletableFuture<Throwable> lost = new CompletableFuture<>();
        client.onConnectionLost(lost::complete);
        CompletableFuture<McpException> failure = CompletableFuture.supplyAsync(() -> {
            try {
                client.callTool("trigger-long-running-operation",
                        Json.createObjectBuilder().add("duration", 20).add("steps", 20).build(), Duration.ofSeconds(8), null);
                return null;
            } catch (McpException e) {
                return e;
            }
        }, threads.executor());
        Thread.sleep(500);
        long killed = System.nanoTime();
        if (mode == Mode.STDIO) {
            assertEquals(1, ServerEverything.killStdioProcesses());
        } else {
            httpServers.get(mode).kill();
        }
        McpException error = failure.get(10, TimeUnit.SECONDS);
        assertTrue(error != null && error.kind() == McpException.Kind.CLOSED, () -> "expected CLOSED, got " + error);
        assertTrue(elapsedMillis(killed) < 3_000, "call failed late: " + elapsedMillis(killed) + " ms");
        assertTrue(lost.get(5, TimeUnit.SECONDS) instanceof McpException);
        assertFalse(client.isOpen());
        client.close();
    }

    @org.junit.jupiter.api.Test
    void stdioEnvironmentIsMergedOverOursWithTheBackendsValuesWinning() throws Exception {
        BackendSpec base = ServerEverything.stdioSpec();
        BackendSpec spec = BackendSpec.stdio(base.command(), base.args(), Map.of("SWITCHBOARD_TEST_VAR", "from-backend", "LANG", "backend-lang"));
        try (McpClient client = connector.connect(spec, CONNECT)) {
            String env = client.callTool("get-env", null, CALL, null).toString();
            assertTrue(env.contains("from-backend"), env);
            assertTrue(env.contains("backend-lang"), env);
            assertTrue(env.contains(System.getenv("PATH").split(":")[0]), "inherited PATH missing");
        }
    }

    private JsonObject awaitSent(String method) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            List<JsonObject> sent = traffic.sent(method);
            if (!sent.isEmpty()) {
                return sent.get(0);
            }
            Thread.sleep(20);
        }
        throw new AssertionError(method + " was never sent");
    }

    private static long elapsedMillis(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
