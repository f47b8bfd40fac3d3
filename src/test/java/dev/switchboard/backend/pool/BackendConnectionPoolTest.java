package dev.switchboard.backend.pool;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.mcp.client.BackendSpec;
import dev.switchboard.mcp.client.DefaultMcpConnector;
import dev.switchboard.testing.MutableClock;
import dev.switchboard.testing.RecordingTraffic;
import dev.switchboard.testing.ResettingProxy;
import dev.switchboard.testing.ScriptedServer;
import dev.switchboard.testing.ServerEverything;
import dev.switchboard.testing.TestThreads;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pool against real backends: server-everything over stdio and streamable HTTP, and the scripted server. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BackendConnectionPoolTest {

    private static final Duration CALL = Duration.ofSeconds(10);
    private static final String USER = "alice";

    private TestThreads threads;
    private ServerEverything http;
    private MutableClock clock;
    private RecordingTraffic traffic;
    private BackendConnectionPool pool;

    @BeforeAll
    void startThreads() {
        threads = new TestThreads();
        http = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
    }

    @AfterAll
    void stopThreads() throws InterruptedException {
        http.close();
        ServerEverything.killAll();
        threads.close();
    }

    @BeforeEach
    void newPool() {
        clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        traffic = new RecordingTraffic();
        PoolConfig config = new PoolConfig(Duration.ofSeconds(15), Duration.ofMinutes(5), Duration.ofMinutes(30), 20);
        pool = new BackendConnectionPool(new DefaultMcpConnector(threads.executor(), threads.scheduler(), traffic), config, clock);
    }

    @AfterEach
    void closePool() {
        pool.close();
        traffic.assertAllSentValid(ProtocolVersions.LATEST);
    }

    @Test
    void defaultsAreTheSeedValues() {
        assertEquals(new PoolConfig(Duration.ofSeconds(30), Duration.ofMinutes(5), Duration.ofMinutes(30), 20), PoolConfig.defaults());
    }

    @Test
    void concurrentCallersShareOneConnect() throws Exception {
        int callers = 5;
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<JsonObject>> calls = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            String message = "caller " + i;
            calls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                    return pool.callTool(USER, "everything", ServerEverything::stdioSpec, "echo", echo(message), CALL, null);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, threads.executor()));
        }
        start.countDown();
        for (int i = 0; i < callers; i++) {
            assertTrue(calls.get(i).get(20, TimeUnit.SECONDS).toString().contains("caller " + i));
        }
        assertEquals(1, traffic.sent("initialize").size());
        PoolStats stats = pool.stats();
        assertEquals(1, stats.connectionsByState().get(ConnectionState.CONNECTED));
        assertEquals(callers, stats.totalCalls());
        assertEquals(0, stats.failedCalls());
    }

    @Test
    void toolListIsCachedUntilItsTtlPasses() throws Exception {
        // the scripted server never announces list changes on its own (server-everything may, which drops the cache)
        BackendSpecSource source = ScriptedServer::spec;
        List<JsonObject> first = pool.listTools(USER, "scripted", source, CALL);
        List<JsonObject> again = pool.listTools(USER, "scripted", source, CALL);
        assertEquals(first, again);
        int pages = traffic.sent("tools/list").size();
        assertEquals(first.size(), pool.connection(USER, "scripted").orElseThrow().cachedTools());

        clock.advance(Duration.ofMinutes(5).plusSeconds(1));
        pool.listTools(USER, "scripted", source, CALL);
        assertEquals(2 * pages, traffic.sent("tools/list").size(), "listed again, all pages, only after the TTL");
    }

    @Test
    void toolsListChangedDropsTheCache() throws Exception {
        BackendSpecSource source = ScriptedServer::spec;
        assertEquals(List.of("alpha", "beta", "gamma", "delta"), names(pool.listTools(USER, "scripted", source, CALL)));
        pool.callTool(USER, "scripted", source, "change", null, CALL, null);
        await(() -> pool.connection(USER, "scripted").orElseThrow().cachedTools() == -1, "cache dropped");
        assertEquals(List.of("alpha", "beta", "gamma", "delta", "epsilon"), names(pool.listTools(USER, "scripted", source, CALL)));
    }

    @Test
    void stdioBackendDyingMidCallIsMarkedErrorAndTheNextCallReconnects() throws Exception {
        BackendSpecSource source = ServerEverything::stdioSpec;
        pool.callTool(USER, "everything", source, "echo", echo("warm up"), CALL, null);
        CompletableFuture<McpException> longCall = longCallInBackground(source, "everything");
        Thread.sleep(500);
        ServerEverything.killStdioProcesses();
        assertBrokenThenReconnects(longCall, source, "everything");
    }

    @Test
    void httpBackendDyingMidCallIsMarkedErrorAndTheNextCallReconnectsToTheRestartedServer() throws Exception {
        BackendSpecSource source = http::spec;
        pool.callTool(USER, "remote", source, "echo", echo("warm up"), CALL, null);
        CompletableFuture<McpException> longCall = longCallInBackground(source, "remote");
        Thread.sleep(500);
        http.restart();
        assertBrokenThenReconnects(longCall, source, "remote");
    }

    @Test
    void oneHttpExchangeThatBreaksFailsOnlyItsCallAndKeepsTheSession() throws Exception {
        // Streamable HTTP exchanges are independent: a connection reset under one POST says nothing about the session,
        // and dropping it would fail every other call in flight on it
        try (ResettingProxy proxy = new ResettingProxy(http.port(), "reset-this-exchange")) {
            BackendSpecSource source = () -> BackendSpec.http(BackendSpec.TransportType.STREAMABLE_HTTP,
                    "http://127.0.0.1:" + proxy.port() + "/mcp", Map.of());
            pool.callTool(USER, "proxied", source, "echo", echo("before"), CALL, null);
            pool.listTools(USER, "proxied", source, CALL);
            McpException broken = assertThrows(McpException.class,
                    () -> pool.callTool(USER, "proxied", source, "echo", echo("reset-this-exchange"), CALL, null));
            assertEquals(McpException.Kind.CLOSED, broken.kind());
            assertEquals(1, proxy.resets());
            assertEquals(ConnectionState.CONNECTED, pool.connection(USER, "proxied").orElseThrow().state());

            traffic.clear();
            assertTrue(pool.listTools(USER, "proxied", source, CALL).size() > 0);
            assertEquals(1, traffic.sent("tools/list").size(), "the broken exchange dropped the cached tool list");
            JsonObject after = pool.callTool(USER, "proxied", source, "echo", echo("after"), CALL, null);
            assertTrue(after.toString().contains("after"));
            assertEquals(0, traffic.sent("initialize").size(), "the same session served the calls after the reset");
        }
    }

    @Test
    void aSlowToolTimesOutWithoutBreakingTheConnection() throws Exception {
        BackendSpecSource source = ServerEverything::stdioSpec;
        McpException timeout = assertThrows(McpException.class, () -> pool.callTool(USER, "everything", source,
                "trigger-long-running-operation", Json.createObjectBuilder().add("duration", 5).add("steps", 5).build(),
                Duration.ofMillis(300), null));
        assertEquals(McpException.Kind.TIMEOUT, timeout.kind());
        assertEquals(ConnectionState.CONNECTED, pool.connection(USER, "everything").orElseThrow().state());
        assertEquals(1, pool.stats().failedCalls());
        // the peer fails the call first and sends the cancellation right after
        await(() -> traffic.sent("notifications/cancelled").size() == 1, "notifications/cancelled sent once");
    }

    @Test
    void idleConnectionsAreReapedByTheClock() throws Exception {
        pool.callTool(USER, "everything", ServerEverything::stdioSpec, "echo", echo("x"), CALL, null);
        pool.callTool("bob", "remote", http::spec, "echo", echo("x"), CALL, null);
        clock.advance(Duration.ofMinutes(20));
        pool.callTool("bob", "remote", http::spec, "echo", echo("still busy"), CALL, null);
        clock.advance(Duration.ofMinutes(11));

        assertEquals(1, pool.reapIdle(clock.instant()));
        assertTrue(pool.connection(USER, "everything").isEmpty());
        assertEquals(ConnectionState.CONNECTED, pool.connection("bob", "remote").orElseThrow().state());
        await(() -> stdioServersRunning() == 0, "reaped stdio process exits");

        pool.callTool(USER, "everything", ServerEverything::stdioSpec, "echo", echo("back"), CALL, null);
        assertEquals(3, traffic.sent("initialize").size());
    }

    @Test
    void evictClosesEveryUsersConnectionToTheServer() throws Exception {
        pool.callTool(USER, "remote", http::spec, "echo", echo("a"), CALL, null);
        pool.callTool("bob", "remote", http::spec, "echo", echo("b"), CALL, null);
        pool.callTool("bob", "other", ServerEverything::stdioSpec, "echo", echo("c"), CALL, null);
        assertEquals(2, pool.evict("remote"));
        assertEquals(List.of("other"), pool.connections().stream().map(s -> s.key().serverId()).toList());
    }

    @Test
    void aFailedConnectIsReportedAsErrorWithItsReason() {
        BackendSpecSource refused = () -> BackendSpec.http(BackendSpec.TransportType.STREAMABLE_HTTP,
                "http://127.0.0.1:" + ServerEverything.freePort() + "/mcp", Map.of());
        McpException error = assertThrows(McpException.class, () -> pool.callTool(USER, "down", refused, "echo", echo("x"), CALL, null));
        assertEquals(McpException.Kind.CONNECT_REFUSED, error.kind());
        ConnectionSnapshot snapshot = pool.connection(USER, "down").orElseThrow();
        assertEquals(ConnectionState.ERROR, snapshot.state());
        assertNotNull(snapshot.lastError());
        assertEquals(1, pool.stats().connectionsByState().get(ConnectionState.ERROR));
        assertEquals(1, pool.stats().failedCalls());
    }

    @Test
    void testConnectionUsesAFreshSessionOutsideThePool() throws Exception {
        ConnectionTest test = pool.testConnection(http::spec);
        assertEquals("mcp-servers/everything", test.initialize().serverInfo().getString("name"));
        assertTrue(names(test.tools()).contains("echo"));
        assertTrue(pool.connections().isEmpty());
    }

    private CompletableFuture<McpException> longCallInBackground(BackendSpecSource source, String serverId) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                pool.callTool(USER, serverId, source, "trigger-long-running-operation",
                        Json.createObjectBuilder().add("duration", 20).add("steps", 20).build(), Duration.ofSeconds(6), null);
                return null;
            } catch (McpException e) {
                return e;
            }
        }, threads.executor());
    }

    private void assertBrokenThenReconnects(CompletableFuture<McpException> longCall, BackendSpecSource source,
                                            String serverId) throws Exception {
        McpException error = longCall.get(8, TimeUnit.SECONDS);
        assertNotNull(error, "the call should have failed");
        assertTrue(error.kind() == McpException.Kind.CLOSED || error.kind() == McpException.Kind.TIMEOUT, error::toString);
        ConnectionSnapshot broken = pool.connection(USER, serverId).orElseThrow();
        assertEquals(ConnectionState.ERROR, broken.state());
        assertNotNull(broken.lastError());

        JsonObject echoed = pool.callTool(USER, serverId, source, "echo", echo("reconnected"), CALL, null);
        assertTrue(echoed.toString().contains("reconnected"));
        assertEquals(ConnectionState.CONNECTED, pool.connection(USER, serverId).orElseThrow().state());
        assertEquals(2, traffic.sent("initialize").size());
    }

    private static JsonObject echo(String message) {
        return Json.createObjectBuilder().add("message", message).build();
    }

    private static List<String> names(List<JsonObject> tools) {
        return tools.stream().map(t -> t.getString("name")).toList();
    }

    private static long stdioServersRunning() {
        String script = ServerEverything.entryPoint().toString();
        return ProcessHandle.current().descendants()
                .filter(p -> p.isAlive() && p.info().commandLine().map(c -> c.contains(script) && c.contains(" stdio")).orElse(false))
                .count();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        for (int i = 0; i < 250; i++) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("timed out waiting for: " + what);
    }
}
