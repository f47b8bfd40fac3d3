package dev.switchboard.gateway;

import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.backend.pool.PoolConfig;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.mcp.client.BackendSpec;
import dev.switchboard.mcp.client.DefaultMcpConnector;
import dev.switchboard.testing.RecordingTraffic;
import dev.switchboard.testing.ServerEverything;
import dev.switchboard.testing.TestThreads;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The router over two real server-everything backends (stdio and streamable HTTP), each behind its own pool and
 * recorder so a test can tell which backend saw what; every message sent downstream is schema-checked at the end.
 */
class GatewayRouterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int PAGE = 5;

    static TestThreads threads;
    static ServerEverything http;
    static final Map<String, RecordingTraffic> traffic = Map.of("stdio", new RecordingTraffic(), "http_ev", new RecordingTraffic());
    static final List<BackendConnectionPool> pools = new ArrayList<>();
    static BackendAccess access;
    static GatewayBackend stdio;
    static GatewayBackend httpBackend;
    static int toolsPerBackend;

    @BeforeAll
    static void start() throws Exception {
        threads = new TestThreads();
        http = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        stdio = backend("stdio", Set.of(), ServerEverything.stdioSpec(), TIMEOUT);
        httpBackend = backend("http_ev", Set.of("get-env"), http.spec(), TIMEOUT);
        Map<String, BackendAccess> byBackend = Map.of("stdio", pooled("stdio"), "http_ev", pooled("http_ev"));
        access = new BackendAccess() {
            @Override
            public List<JsonObject> listTools(GatewayBackend backend, Duration timeout) throws McpException {
                return byBackend.get(backend.name()).listTools(backend, timeout);
            }

            @Override
            public JsonObject request(GatewayBackend backend, String method, JsonObject params, Duration timeout,
                                      Consumer<JsonObject> progress) throws McpException {
                return byBackend.get(backend.name()).request(backend, method, params, timeout, progress);
            }
        };
        toolsPerBackend = access.listTools(stdio, TIMEOUT).size();
    }

    @AfterAll
    static void stop() throws Exception {
        pools.forEach(BackendConnectionPool::close);
        http.close();
        threads.close();
        traffic.values().forEach(t -> t.assertAllSentValid(ProtocolVersions.LATEST));
    }

    static GatewayBackend backend(String name, Set<String> disabled, BackendSpec spec, Duration timeout) {
        return new GatewayBackend(name, name + "-id", disabled, timeout, () -> spec);
    }

    static BackendAccess pooled(String name) {
        BackendConnectionPool pool = new BackendConnectionPool(
                new DefaultMcpConnector(threads.executor(), threads.scheduler(), traffic.get(name)),
                PoolConfig.defaults(), Clock.systemUTC());
        pools.add(pool);
        return new PooledBackendAccess(pool, "alice");
    }

    static GatewayRouter router(GatewayBackend... backends) {
        GatewaySettings defaults = GatewaySettings.defaults();
        GatewaySettings settings = new GatewaySettings(PAGE, Duration.ofSeconds(5), defaults.maxBodyBytes(),
                defaults.allowedOrigins(), defaults.sessionIdleTimeout(), defaults.keepAliveInterval(), false);
        return new GatewayRouter(List.of(backends), access, threads.executor(), settings);
    }

    static int nextId = 0;

    static JsonRpcMessage request(String method, JsonObject params) {
        return JsonRpcMessage.request(Json.createValue(++nextId), method, params);
    }

    static JsonObject call(String name, JsonObject arguments) {
        return Json.createObjectBuilder().add("name", name).add("arguments", arguments).build();
    }

    static int errorCode(JsonRpcMessage response) {
        return response.json().getJsonObject("error").getInt("code");
    }

    static List<String> listAll(GatewayRouter router) {
        List<String> names = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < 100; page++) {
            JsonObject params = cursor == null ? JsonValue.EMPTY_JSON_OBJECT : Json.createObjectBuilder().add("cursor", cursor).build();
            JsonObject result = router.handle(request("tools/list", params), null).json().getJsonObject("result");
            assertTrue(result.getJsonArray("tools").size() <= PAGE);
            result.getJsonArray("tools").forEach(t -> names.add(t.asJsonObject().getString("name")));
            cursor = result.getString("nextCursor", null);
            if (cursor == null) {
                return names;
            }
        }
        throw new AssertionError("pagination did not end");
    }

    @Test
    void listsEveryToolOfEveryBackendAcrossPagesInAStableOrder() {
        GatewayRouter router = router(stdio, httpBackend);
        List<String> names = listAll(router);
        assertEquals(2 * toolsPerBackend - 1, names.size(), names::toString);
        assertEquals(names.size(), new HashSet<>(names).size(), "no duplicates across pages");
        assertTrue(names.contains("http_ev__echo") && names.contains("stdio__echo"), names::toString);
        assertFalse(names.contains("http_ev__get-env"), "disabled tools are not listed");
        assertTrue(names.contains("stdio__get-env"));
        assertTrue(names.stream().allMatch(n -> n.matches("^[A-Za-z0-9_.-]{1,128}$")));
        assertTrue(names.indexOf("http_ev__echo") < names.indexOf("stdio__echo"), "backends in name order");
        assertEquals(names, listAll(router), "the same listing twice");
    }

    @Test
    void listedToolsKeepEverythingButTheirName() throws Exception {
        JsonObject first = router(httpBackend).handle(request("tools/list", JsonValue.EMPTY_JSON_OBJECT), null)
                .json().getJsonObject("result").getJsonArray("tools").getJsonObject(0);
        JsonObject original = access.listTools(httpBackend, TIMEOUT).get(0);
        assertEquals("http_ev__" + original.getString("name"), first.getString("name"));
        assertEquals(Json.createObjectBuilder(original).remove("name").build(), Json.createObjectBuilder(first).remove("name").build());
    }

    @Test
    void callsGoToTheOwningBackendUnderTheirOwnNameAndResultsPassThrough() throws Exception {
        GatewayRouter router = router(stdio, httpBackend);
        for (GatewayBackend backend : List.of(stdio, httpBackend)) {
            JsonObject args = Json.createObjectBuilder().add("message", "hello " + backend.name()).build();
            JsonObject result = router.handle(request("tools/call", call(backend.name() + "__echo", args)), null)
                    .json().getJsonObject("result");
            JsonObject direct = access.request(backend, "tools/call", call("echo", args), TIMEOUT, null);
            assertEquals(direct, result, "passed through unchanged");
            List<JsonObject> sent = traffic.get(backend.name()).sent("tools/call");
            assertEquals("echo", sent.get(sent.size() - 1).getJsonObject("params").getString("name"));
        }
        JsonObject structured = router.handle(request("tools/call", call("stdio__get-structured-content",
                Json.createObjectBuilder().add("location", "New York").build())), null).json().getJsonObject("result");
        assertTrue(structured.containsKey("structuredContent"), structured::toString);
    }

    @Test
    void unknownToolsAreInvalidParams() {
        GatewayRouter router = router(stdio, httpBackend);
        for (String name : List.of("nope__echo", "stdio__no-such-tool", "echo", "http_ev__get-env", "stdio__")) {
            assertEquals(GatewayErrors.INVALID_PARAMS, errorCode(router.handle(request("tools/call", call(name, JsonValue.EMPTY_JSON_OBJECT)), null)), name);
        }
    }

    @Test
    void progressReachesTheClientUnderItsOwnToken() {
        List<JsonObject> progress = new CopyOnWriteArrayList<>();
        JsonObject params = Json.createObjectBuilder(call("http_ev__trigger-long-running-operation",
                        Json.createObjectBuilder().add("duration", 0.6).add("steps", 3).build()))
                .add("_meta", Json.createObjectBuilder().add("progressToken", "client-token-7")).build();
        JsonObject result = router(httpBackend).handle(request("tools/call", params), progress::add).json().getJsonObject("result");
        assertTrue(result.toString().contains("completed"), result::toString);
        assertEquals(3, progress.size(), progress::toString);
        assertTrue(progress.stream().allMatch(p -> "client-token-7".equals(p.getString("progressToken"))), progress::toString);
        assertEquals(3, progress.get(2).getInt("progress"));
    }

    @Test
    void aBackendThatIsDownIsLeftOutOfTheListAndItsCallsAreUnavailable() {
        GatewayBackend down = backend("down", Set.of(), BackendSpec.http(BackendSpec.TransportType.STREAMABLE_HTTP,
                "http://127.0.0.1:" + ServerEverything.freePort() + "/mcp", Map.of()), TIMEOUT);
        BackendAccess downAccess = new PooledBackendAccess(new BackendConnectionPool(
                new DefaultMcpConnector(threads.executor(), threads.scheduler()), PoolConfig.defaults(), Clock.systemUTC()), "alice");
        GatewayRouter router = new GatewayRouter(List.of(down, httpBackend), new BackendAccess() {
            @Override
            public List<JsonObject> listTools(GatewayBackend backend, Duration timeout) throws McpException {
                return (backend == down ? downAccess : access).listTools(backend, timeout);
            }

            @Override
            public JsonObject request(GatewayBackend backend, String method, JsonObject params, Duration timeout,
                                      Consumer<JsonObject> progress) throws McpException {
                return (backend == down ? downAccess : access).request(backend, method, params, timeout, progress);
            }
        }, threads.executor(), GatewaySettings.defaults());
        JsonObject result = router.handle(request("tools/list", JsonValue.EMPTY_JSON_OBJECT), null).json().getJsonObject("result");
        assertEquals(toolsPerBackend - 1, result.getJsonArray("tools").size());
        JsonRpcMessage failed = router.handle(request("tools/call", call("down__echo", JsonValue.EMPTY_JSON_OBJECT)), null);
        assertEquals(GatewayErrors.BACKEND_UNAVAILABLE, errorCode(failed));
        assertEquals("down", failed.json().getJsonObject("error").getJsonObject("data").getString("backend"));
    }

    @Test
    void aCallSlowerThanItsServersTimeoutIsABackendTimeout() {
        GatewayBackend impatient = new GatewayBackend("http_ev", httpBackend.serverId(), Set.of(), Duration.ofSeconds(1), httpBackend.spec());
        JsonRpcMessage response = router(impatient).handle(request("tools/call", call("http_ev__trigger-long-running-operation",
                Json.createObjectBuilder().add("duration", 5).add("steps", 5).build())), null);
        assertEquals(GatewayErrors.BACKEND_TIMEOUT, errorCode(response));
    }

    @Test
    void anInterruptedCallIsCancelledAtItsOwnBackendOnly() throws Exception {
        GatewayRouter router = router(stdio, httpBackend);
        int stdioCancels = traffic.get("stdio").sent("notifications/cancelled").size();
        int httpCancels = traffic.get("http_ev").sent("notifications/cancelled").size();
        CompletableFuture<Thread> worker = new CompletableFuture<>();
        CompletableFuture<JsonRpcMessage> answer = CompletableFuture.supplyAsync(() -> {
            worker.complete(Thread.currentThread());
            return router.handle(request("tools/call", call("stdio__trigger-long-running-operation",
                    Json.createObjectBuilder().add("duration", 10).add("steps", 10).build())), null);
        }, threads.executor());
        Thread.sleep(1_000);
        worker.get().interrupt();
        assertEquals(GatewayErrors.REQUEST_CANCELLED, errorCode(answer.get(5, TimeUnit.SECONDS)));
        JsonObject call = last(traffic.get("stdio").sent("tools/call"));
        JsonObject cancelled = awaitMore(traffic.get("stdio"), stdioCancels);
        assertEquals(call.get("id"), cancelled.getJsonObject("params").get("requestId"));
        assertEquals(httpCancels, traffic.get("http_ev").sent("notifications/cancelled").size(), "the other backend hears nothing");
    }

    @Test
    void pingUnknownMethodsAndBadCursors() {
        GatewayRouter router = router(stdio, httpBackend);
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, router.handle(request("ping", null), null).json().getJsonObject("result"));
        assertEquals(GatewayErrors.METHOD_NOT_FOUND, errorCode(router.handle(request("resources/list", null), null)));
        assertEquals(GatewayErrors.INVALID_PARAMS, errorCode(router.handle(request("tools/list",
                Json.createObjectBuilder().add("cursor", "not-ours").build()), null)));
    }

    private static JsonObject last(List<JsonObject> messages) {
        return messages.get(messages.size() - 1);
    }

    private static JsonObject awaitMore(RecordingTraffic recorder, int before) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            List<JsonObject> sent = recorder.sent("notifications/cancelled");
            if (sent.size() > before) {
                return last(sent);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("notifications/cancelled was never sent");
    }
}
