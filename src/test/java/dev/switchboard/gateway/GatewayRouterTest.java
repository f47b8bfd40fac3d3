package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.backend.access.BackendTarget;
import dev.switchboard.backend.access.PooledBackendAccess;
import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.backend.pool.PoolConfig;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.mcp.client.BackendSpec;
import dev.switchboard.mcp.client.DefaultMcpConnector;
import dev.switchboard.mcp.client.InitializeResult;
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
    static final GatewaySessions sessions = new GatewaySessions(Duration.ofMinutes(5), Clock.systemUTC());
    static final GatewaySession session = sessions.create("alice");
    static final ResourceSubscriptions subscriptions = new ResourceSubscriptions();

    @BeforeAll
    static void start() throws Exception {
        threads = new TestThreads();
        http = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        stdio = backend("stdio", Set.of(), ServerEverything.stdioSpec(), TIMEOUT);
        httpBackend = backend("http_ev", Set.of("get-env"), http.spec(), TIMEOUT);
        Map<String, BackendAccess> byBackend = Map.of("stdio", pooled("stdio"), "http_ev", pooled("http_ev"));
        access = new BackendAccess() {
            @Override
            public List<JsonObject> listTools(BackendTarget backend, Duration timeout) throws McpException {
                return byBackend.get(backend.name()).listTools(backend, timeout);
            }

            @Override
            public InitializeResult initializeResult(BackendTarget backend, Duration timeout) throws McpException {
                return byBackend.get(backend.name()).initializeResult(backend, timeout);
            }

            @Override
            public JsonObject request(BackendTarget backend, String method, JsonObject params, Duration timeout,
                                      Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException {
                return byBackend.get(backend.name()).request(backend, method, params, timeout, progress, serverRequests);
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
        pool.onNotification(new BackendEventsRelay(sessions, subscriptions, new ListenStreams()));
        return new PooledBackendAccess(pool, "alice");
    }

    static GatewayRouter router(GatewayBackend... backends) {
        GatewaySettings defaults = GatewaySettings.defaults();
        GatewaySettings settings = new GatewaySettings(PAGE, Duration.ofSeconds(5), defaults.maxBodyBytes(),
                defaults.allowedOrigins(), defaults.sessionIdleTimeout(), defaults.keepAliveInterval(), false);
        return new GatewayRouter(List.of(backends), access, threads.executor(), settings, subscriptions.of(session));
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
            JsonObject direct = access.request(backend, "tools/call", call("echo", args), TIMEOUT, null, null);
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
            public List<JsonObject> listTools(BackendTarget backend, Duration timeout) throws McpException {
                return (backend == down ? downAccess : access).listTools(backend, timeout);
            }

            @Override
            public InitializeResult initializeResult(BackendTarget backend, Duration timeout) throws McpException {
                return (backend == down ? downAccess : access).initializeResult(backend, timeout);
            }

            @Override
            public JsonObject request(BackendTarget backend, String method, JsonObject params, Duration timeout,
                                      Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException {
                return (backend == down ? downAccess : access).request(backend, method, params, timeout, progress, serverRequests);
            }
        }, threads.executor(), GatewaySettings.defaults(), subscriptions.of(session));
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
        assertEquals(GatewayErrors.METHOD_NOT_FOUND, errorCode(router.handle(request("tasks/list", null), null)));
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

    static final String ARCHITECTURE = "demo://resource/static/document/architecture.md";

    static JsonObject result(JsonRpcMessage response) {
        assertTrue(response.json().containsKey("result"), response::toString);
        return response.json().getJsonObject("result");
    }

    static List<JsonObject> listAll(GatewayRouter router, String method, String field) {
        List<JsonObject> items = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < 100; page++) {
            JsonObject params = cursor == null ? JsonValue.EMPTY_JSON_OBJECT : Json.createObjectBuilder().add("cursor", cursor).build();
            JsonObject result = result(router.handle(request(method, params), null));
            assertTrue(result.getJsonArray(field).size() <= PAGE);
            result.getJsonArray(field).forEach(t -> items.add(t.asJsonObject()));
            cursor = result.getString("nextCursor", null);
            if (cursor == null) {
                return items;
            }
        }
        throw new AssertionError("pagination did not end");
    }

    @Test
    void initializeOffersWhatTheBackendsOfferButNotTasks() {
        JsonObject capabilities = router(stdio, httpBackend).capabilities();
        assertTrue(capabilities.getJsonObject("resources").getBoolean("subscribe"), capabilities::toString);
        assertTrue(capabilities.getJsonObject("prompts").getBoolean("listChanged"), capabilities::toString);
        assertTrue(capabilities.containsKey("completions") && capabilities.containsKey("logging"), capabilities::toString);
        assertFalse(capabilities.containsKey("tasks"), "the gateway does not route tasks");
    }

    @Test
    void resourcesOfBothBackendsArePagedUnderGatewayUrisAndReadBack() {
        GatewayRouter router = router(stdio, httpBackend);
        List<String> uris = listAll(router, "resources/list", "resources").stream().map(r -> r.getString("uri")).toList();
        assertEquals(uris.size(), new HashSet<>(uris).size(), uris::toString);
        assertTrue(uris.contains("switchboard://stdio/" + ARCHITECTURE), uris::toString);
        assertTrue(uris.contains("switchboard://http_ev/" + ARCHITECTURE), uris::toString);
        assertEquals(uris.size() / 2, uris.stream().filter(u -> u.startsWith("switchboard://stdio/")).count(), uris::toString);

        JsonObject read = result(router.handle(request("resources/read", Json.createObjectBuilder()
                .add("uri", "switchboard://http_ev/" + ARCHITECTURE).build()), null));
        JsonObject content = read.getJsonArray("contents").getJsonObject(0);
        assertEquals("switchboard://http_ev/" + ARCHITECTURE, content.getString("uri"));
        assertFalse(content.getString("text").isEmpty());
    }

    @Test
    void templatesExpandOnTheClientAndRouteBack() {
        GatewayRouter router = router(stdio, httpBackend);
        List<String> templates = listAll(router, "resources/templates/list", "resourceTemplates").stream()
                .map(t -> t.getString("uriTemplate")).toList();
        assertTrue(templates.contains("switchboard://stdio/demo://resource/dynamic/text/{resourceId}"), templates::toString);
        String expanded = "switchboard://stdio/demo://resource/dynamic/text/7";
        JsonObject read = result(router.handle(request("resources/read", Json.createObjectBuilder().add("uri", expanded).build()), null));
        assertEquals(expanded, read.getJsonArray("contents").getJsonObject(0).getString("uri"));
    }

    @Test
    void unknownResourcesAndPromptsAreErrors() {
        GatewayRouter router = router(stdio);
        assertEquals(GatewayErrors.RESOURCE_NOT_FOUND, errorCode(router.handle(request("resources/read",
                Json.createObjectBuilder().add("uri", ARCHITECTURE).build()), null)));
        assertEquals(GatewayErrors.RESOURCE_NOT_FOUND, errorCode(router.handle(request("resources/read",
                Json.createObjectBuilder().add("uri", "switchboard://nobody/" + ARCHITECTURE).build()), null)));
        assertEquals(GatewayErrors.INVALID_PARAMS, errorCode(router.handle(request("prompts/get",
                Json.createObjectBuilder().add("name", "nobody__simple-prompt").build()), null)));
    }

    @Test
    void promptsAreNamedLikeToolsAndGetRoutesBack() {
        GatewayRouter router = router(stdio, httpBackend);
        List<String> names = listAll(router, "prompts/list", "prompts").stream().map(p -> p.getString("name")).toList();
        assertTrue(names.containsAll(List.of("stdio__simple-prompt", "http_ev__args-prompt")), names::toString);
        JsonObject prompt = result(router.handle(request("prompts/get", Json.createObjectBuilder().add("name", "http_ev__args-prompt")
                .add("arguments", Json.createObjectBuilder().add("city", "Lisbon")).build()), null));
        assertTrue(prompt.getJsonArray("messages").toString().contains("Lisbon"), prompt::toString);
    }

    @Test
    void completionsRouteByPromptAndByResourceTemplate() {
        GatewayRouter router = router(stdio, httpBackend);
        JsonObject byPrompt = result(router.handle(request("completion/complete", Json.createObjectBuilder()
                .add("ref", Json.createObjectBuilder().add("type", "ref/prompt").add("name", "stdio__completable-prompt"))
                .add("argument", Json.createObjectBuilder().add("name", "department").add("value", "En")).build()), null));
        assertTrue(byPrompt.getJsonObject("completion").getJsonArray("values").toString().contains("Engineering"), byPrompt::toString);
        JsonObject byTemplate = result(router.handle(request("completion/complete", Json.createObjectBuilder()
                .add("ref", Json.createObjectBuilder().add("type", "ref/resource")
                        .add("uri", "switchboard://http_ev/demo://resource/dynamic/text/{resourceId}"))
                .add("argument", Json.createObjectBuilder().add("name", "resourceId").add("value", "1")).build()), null));
        assertTrue(byTemplate.getJsonObject("completion").containsKey("values"), byTemplate::toString);
        assertEquals(GatewayErrors.INVALID_PARAMS, errorCode(router.handle(request("completion/complete", Json.createObjectBuilder()
                .add("ref", Json.createObjectBuilder().add("type", "ref/prompt").add("name", "nobody__x"))
                .add("argument", Json.createObjectBuilder().add("name", "a").add("value", "b")).build()), null)));
    }

    @Test
    void setLevelReachesEveryBackend() {
        traffic.values().forEach(RecordingTraffic::clear);
        JsonRpcMessage response = router(stdio, httpBackend).handle(request("logging/setLevel",
                Json.createObjectBuilder().add("level", "error").build()), null);
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, result(response));
        traffic.values().forEach(t -> assertEquals(1, t.sent("logging/setLevel").size()));
    }

    @Test
    void subscriptionsAreSharedAtTheBackendAndUpdatesReachTheSubscriber() throws Exception {
        GatewaySession other = sessions.create("alice");
        List<JsonRpcMessage> received = new CopyOnWriteArrayList<>();
        session.addStream(received::add);
        String exposed = "switchboard://stdio/" + ARCHITECTURE;
        JsonObject params = Json.createObjectBuilder().add("uri", exposed).build();
        traffic.get("stdio").clear();
        GatewayRouter mine = router(stdio);
        GatewayRouter theirs = new GatewayRouter(List.of(stdio), access, threads.executor(), GatewaySettings.defaults(),
                subscriptions.of(other));
        result(mine.handle(request("resources/subscribe", params), null));
        result(theirs.handle(request("resources/subscribe", params), null));
        assertEquals(1, traffic.get("stdio").sent("resources/subscribe").size(), "one backend subscription per caller");
        assertEquals(Set.of(session.id(), other.id()), subscriptions.sessionsOf("alice", stdio.serverId(), ARCHITECTURE));

        JsonObject toggle = call("stdio__toggle-subscriber-updates", JsonValue.EMPTY_JSON_OBJECT);
        result(mine.handle(request("tools/call", toggle), null));
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (received.stream().noneMatch(m -> "notifications/resources/updated".equals(m.method())) && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            JsonRpcMessage update = received.stream().filter(m -> "notifications/resources/updated".equals(m.method()))
                    .findFirst().orElseThrow(() -> new AssertionError("no update in 15 s: " + received));
            assertEquals(exposed, update.params().getString("uri"));
        } finally {
            result(mine.handle(request("tools/call", toggle), null));
        }
        result(theirs.handle(request("resources/unsubscribe", params), null));
        assertEquals(0, traffic.get("stdio").sent("resources/unsubscribe").size(), "another session still subscribes");
        result(mine.handle(request("resources/unsubscribe", params), null));
        assertEquals(1, traffic.get("stdio").sent("resources/unsubscribe").size(), "the last one out unsubscribes");
    }

    @Test
    void aBackendsSamplingAndElicitationReachTheCallersClientAndTheAnswersGoBack() {
        List<String> asked = new CopyOnWriteArrayList<>();
        ServerRequestHandler client = (method, params) -> {
            asked.add(method);
            return CompletableFuture.completedFuture(switch (method) {
                case "sampling/createMessage" -> Json.createObjectBuilder().add("model", "scripted").add("role", "assistant")
                        .add("content", Json.createObjectBuilder().add("type", "text").add("text", "sampled by the client")).build();
                case "elicitation/create" -> Json.createObjectBuilder().add("action", "accept")
                        .add("content", Json.createObjectBuilder().add("name", "Ada Lovelace")).build();
                default -> throw new AssertionError(method);
            });
        };
        GatewayRouter router = router(stdio, httpBackend);
        JsonObject sampled = result(router.handle(request("tools/call", call("http_ev__trigger-sampling-request",
                Json.createObjectBuilder().add("prompt", "hello").build())), null, client));
        assertTrue(sampled.toString().contains("sampled by the client"), sampled::toString);
        JsonObject elicited = result(router.handle(request("tools/call", call("stdio__trigger-elicitation-request",
                JsonValue.EMPTY_JSON_OBJECT)), null, client));
        assertTrue(elicited.toString().contains("Ada Lovelace"), elicited::toString);
        assertEquals(List.of("sampling/createMessage", "elicitation/create"), asked);
    }

    @Test
    void aClientThatRefusesSamplingFailsTheBackendsRequestNotTheSession() {
        ServerRequestHandler refusing = (method, params) -> CompletableFuture.failedFuture(
                McpException.rpcError(-32601, "Method not found", null));
        JsonRpcMessage response = router(stdio).handle(request("tools/call", call("stdio__trigger-sampling-request",
                Json.createObjectBuilder().add("prompt", "hello").build())), null, refusing);
        assertTrue(response.toJson().contains("Method not found"), response::toJson);
        JsonObject echo = result(router(stdio).handle(request("tools/call", call("stdio__echo",
                Json.createObjectBuilder().add("message", "still here").build())), null));
        assertTrue(echo.toString().contains("still here"));
    }

    @Test
    void thePassthroughShowsOneBackendAsItIsButForItsDisabledTools() {
        PassthroughRouter router = new PassthroughRouter(httpBackend, access, subscriptions.of(session, false));
        JsonObject init = router.initializeResult("2025-11-25");
        assertTrue(init.getJsonObject("serverInfo").getString("name").contains("everything"), init::toString);
        assertFalse(init.getJsonObject("capabilities").containsKey("tasks"), init::toString);
        JsonObject tools = result(router.handle(request("tools/list", JsonValue.EMPTY_JSON_OBJECT), null, null));
        List<String> names = tools.getJsonArray("tools").stream().map(t -> t.asJsonObject().getString("name")).toList();
        assertTrue(names.contains("echo") && !names.contains("get-env"), names::toString);
        assertEquals(GatewayErrors.INVALID_PARAMS, errorCode(router.handle(request("tools/call",
                call("get-env", JsonValue.EMPTY_JSON_OBJECT)), null, null)));
        JsonObject read = result(router.handle(request("resources/read", Json.createObjectBuilder()
                .add("uri", ARCHITECTURE).build()), null, null));
        assertEquals(ARCHITECTURE, read.getJsonArray("contents").getJsonObject(0).getString("uri"));
    }

    @Test
    void thePassthroughRefusesWhatIsNoValidClientRequestInsteadOfSendingItOn() {
        PassthroughRouter router = new PassthroughRouter(httpBackend, access, subscriptions.of(session, false));
        int sent = traffic.get("http_ev").outbound().size();
        assertEquals(GatewayErrors.METHOD_NOT_FOUND, errorCode(router.handle(request("no/such/method", null), null, null)));
        assertEquals(GatewayErrors.METHOD_NOT_FOUND, errorCode(router.handle(request("tasks/list", null), null, null)));
        assertEquals(GatewayErrors.INVALID_PARAMS, errorCode(router.handle(request("tools/call",
                Json.createObjectBuilder().add("arguments", JsonValue.EMPTY_JSON_OBJECT).build()), null, null)));
        assertEquals(GatewayErrors.INVALID_PARAMS, errorCode(router.handle(request("resources/read", JsonValue.EMPTY_JSON_OBJECT), null, null)));
        assertEquals(sent, traffic.get("http_ev").outbound().size(), "nothing reached the backend");
    }
}
