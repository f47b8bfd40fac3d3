package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Servers;
import dev.switchboard.testing.McpSchemaValidator.Sender;
import dev.switchboard.testing.WireLog;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every message the gateway sends, to its clients and to its backends, validates against
 * {@code src/test/resources/mcp-schema/<version>/schema.json} of the version negotiated on that edge. A raw client records
 * every message on the wire (JSON bodies, each SSE event of POST answers and of the GET stream, each WebSocket frame)
 * and drives a whole session: initialize, ping, paged lists, calls (plain, with progress, a tool error, an unknown
 * tool), resources (read, subscribe with an update, unsubscribe), prompts, completion, logging (with a log message),
 * sampling, elicitation and roots answered by the client, cancellation, and error answers. Two real server-everything
 * backends (stdio and Streamable HTTP) sit behind {@code backend-tap.mjs}, which records what the gateway sends them.
 * Each test uses a fresh user, hence fresh pooled backend sessions.
 */
class GatewaySchemaIT {

    static final String LATEST = "2025-11-25";
    static final Duration NOTICE = Duration.ofSeconds(20);
    static TappedBackend stdio;
    static TappedBackend http;

    @BeforeAll
    static void startBackends() {
        Api.awaitReady();
        removeLeftovers();
        stdio = TappedBackend.stdio("schema-stdio");
        http = TappedBackend.streamableHttp("schema-http");
    }

    /** This test's servers of an earlier run that ended abruptly (the IT database outlives a run) would join /mcp. */
    static void removeLeftovers() {
        Servers.removeNamed(name -> name.startsWith(Servers.GATEWAY_PREFIX + "schema-"));
    }

    @AfterAll
    static void stopBackends() {
        if (stdio != null) {
            stdio.close();
        }
        if (http != null) {
            http.close();
        }
    }

    /** Where a session's calls go: the backend, and how its tools, prompts and resources are named at that endpoint. */
    record Target(TappedBackend backend, boolean aggregated) {
        String name(String own) {
            return aggregated ? backend.name() + "__" + own : own;
        }

        boolean owns(String uri) {
            return !aggregated || uri.startsWith("switchboard://" + backend.name() + "/");
        }
    }

    @Test
    void aggregatedOverStreamableHttp() {
        try (HttpMcpClientPeer peer = new HttpMcpClientPeer("/mcp", Api.newUser("default"), LATEST)) {
            fullSession(peer, new Target(stdio, true));
            assertEquals(200, peer.terminate());
            assertCarriedEveryWay(peer);
            assertClientSideValid(peer);
        }
        assertBackendSideValid(stdio);
        assertBackendSideCovered(stdio);
    }

    @Test
    void passthroughOverStreamableHttp() {
        try (HttpMcpClientPeer peer = new HttpMcpClientPeer("/mcp/servers/" + http.name(), Api.newUser("default"), LATEST)) {
            fullSession(peer, new Target(http, false));
            assertEquals(200, peer.terminate());
            assertCarriedEveryWay(peer);
            assertClientSideValid(peer);
        }
        assertBackendSideValid(http);
        assertBackendSideCovered(http);
    }

    @Test
    void aggregatedOverWebSocket() {
        try (SocketMcpClientPeer peer = new SocketMcpClientPeer(Api.newUser("default"), LATEST)) {
            fullSession(peer, new Target(http, true));
            assertClientSideValid(peer);
        }
        assertBackendSideValid(http);
    }

    @ParameterizedTest(name = "{0} at {1} over {2}")
    @CsvSource({
            "2025-06-18, aggregated, http", "2025-06-18, passthrough, http", "2025-06-18, aggregated, websocket",
            "2025-03-26, aggregated, http", "2025-03-26, passthrough, http", "2025-03-26, aggregated, websocket"})
    void olderVersionsListAndCall(String version, String endpoint, String transport) {
        Target target = new Target(stdio, endpoint.equals("aggregated"));
        String token = Api.newUser("default");
        try (McpClientPeer peer = transport.equals("websocket") ? new SocketMcpClientPeer(token, version)
                : new HttpMcpClientPeer(target.aggregated() ? "/mcp" : "/mcp/servers/" + stdio.name(), token, version)) {
            peer.initialize();
            assertEquals(version, peer.version());
            List<JsonObject> tools = pages(peer, "tools/list", "tools");
            assertTrue(tools.stream().anyMatch(t -> t.getString("name").equals(target.name("echo"))), tools::toString);
            JsonObject echo = peer.result("tools/call", call(target.name("echo"), args().add("message", "at " + version), null));
            assertTrue(echo.toString().contains("at " + version), echo::toString);
            JsonObject links = peer.result("tools/call", call(target.name("get-resource-links"), args().add("count", 2), null));
            assertEquals(version.compareTo("2025-06-18") >= 0, links.toString().contains("\"resource_link\""),
                    () -> "resource links only from 2025-06-18 on, as text before: " + links);
            peer.result("tools/call", call(target.name("get-structured-content"), args().add("location", "New York"), null));
            peer.result("tools/call", call(target.name("get-annotated-message"),
                    args().add("messageType", "success").add("includeImage", true), null));
            assertUnknownTool(peer, target);
            if (peer instanceof HttpMcpClientPeer h) {
                assertEquals(200, h.terminate());
            }
            assertClientSideValid(peer);
        }
        assertBackendSideValid(stdio);
    }

    /** The whole protocol once, through one endpoint, at the latest version. */
    private static void fullSession(McpClientPeer peer, Target target) {
        JsonObject init = peer.initialize();
        assertEquals(LATEST, peer.version());
        assertTrue(init.getJsonObject("capabilities").containsKey("tools"), init::toString);
        if (peer instanceof HttpMcpClientPeer h) {
            h.openServerStream();
        }
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, peer.result("ping", null));

        List<JsonObject> tools = pages(peer, "tools/list", "tools");
        assertTrue(tools.size() > 5, "more tools than one page of 5: " + tools.size());
        assertTrue(tools.stream().anyMatch(t -> t.getString("name").equals(target.name("trigger-sampling-request"))), tools::toString);
        tools(peer, target);
        resources(peer, target);
        prompts(peer, target);

        peer.result("logging/setLevel", Json.createObjectBuilder().add("level", "debug").build());
        toggled(peer, target, "toggle-simulated-logging",
                m -> "notifications/message".equals(m.getString("method", null)), "a log message");

        clientAnswers(peer, target);
        cancellation(peer, target);
        errors(peer, target);
    }

    private static void tools(McpClientPeer peer, Target target) {
        JsonObject echo = peer.result("tools/call", call(target.name("echo"), args().add("message", "schema"), null));
        assertTrue(echo.toString().contains("schema"), echo::toString);
        JsonObject longRun = peer.result("tools/call", call(target.name("trigger-long-running-operation"),
                args().add("duration", 1).add("steps", 2), "progress-1"));
        assertTrue(longRun.toString().contains("completed"), longRun::toString);
        peer.wire.await(Sender.SERVER, m -> "notifications/progress".equals(m.getString("method", null))
                && "progress-1".equals(m.getJsonObject("params").getString("progressToken", null)), NOTICE, "progress");
        for (String tool : List.of("get-structured-content", "get-resource-links", "get-tiny-image", "get-annotated-message")) {
            JsonObjectBuilder arguments = switch (tool) {
                case "get-structured-content" -> args().add("location", "New York");
                case "get-resource-links" -> args().add("count", 2);
                case "get-annotated-message" -> args().add("messageType", "success").add("includeImage", true);
                default -> args();
            };
            peer.result("tools/call", call(target.name(tool), arguments, null));
        }
        // arguments the tool's input schema refuses: a tool error (isError) or a JSON-RPC error, either must validate
        JsonObject bad = peer.request("tools/call", call(target.name("get-sum"), args().add("a", "one").add("b", 2), null));
        assertTrue(bad.containsKey("error") || bad.getJsonObject("result").getBoolean("isError", false), bad::toString);
        assertUnknownTool(peer, target);
    }

    /**
     * The aggregated endpoint refuses a tool no backend has with -32602; the passthrough gives the backend's own
     * answer (server-everything's SDK says so in a tool error).
     */
    private static void assertUnknownTool(McpClientPeer peer, Target target) {
        JsonObject unknown = peer.request("tools/call", call(target.name("no-such-tool"), args(), null));
        if (target.aggregated()) {
            assertEquals(-32602, code(unknown));
        } else {
            assertTrue(unknown.containsKey("error") || unknown.getJsonObject("result").getBoolean("isError", false), unknown::toString);
            assertTrue(unknown.toString().contains("not found"), unknown::toString);
        }
    }

    private static void resources(McpClientPeer peer, Target target) {
        List<JsonObject> resources = pages(peer, "resources/list", "resources");
        String uri = resources.stream().map(r -> r.getString("uri")).filter(target::owns).findFirst()
                .orElseThrow(() -> new AssertionError("no resource of " + target + ": " + resources));
        List<JsonObject> templates = pages(peer, "resources/templates/list", "resourceTemplates");
        assertFalse(templates.isEmpty());
        JsonObject read = peer.result("resources/read", Json.createObjectBuilder().add("uri", uri).build());
        assertFalse(read.getJsonArray("contents").isEmpty(), read::toString);
        peer.result("resources/subscribe", Json.createObjectBuilder().add("uri", uri).build());
        toggled(peer, target, "toggle-subscriber-updates", m -> "notifications/resources/updated".equals(m.getString("method", null))
                && uri.equals(m.getJsonObject("params").getString("uri", null)), "a resource update");
        peer.result("resources/unsubscribe", Json.createObjectBuilder().add("uri", uri).build());
    }

    private static void prompts(McpClientPeer peer, Target target) {
        List<JsonObject> prompts = pages(peer, "prompts/list", "prompts");
        assertTrue(prompts.stream().anyMatch(p -> p.getString("name").equals(target.name("args-prompt"))), prompts::toString);
        peer.result("prompts/get", Json.createObjectBuilder().add("name", target.name("simple-prompt")).build());
        peer.result("prompts/get", Json.createObjectBuilder().add("name", target.name("args-prompt"))
                .add("arguments", Json.createObjectBuilder().add("city", "Lyon")).build());
        peer.result("prompts/get", Json.createObjectBuilder().add("name", target.name("resource-prompt"))
                .add("arguments", Json.createObjectBuilder().add("resourceType", "Text").add("resourceId", "2")).build());
        JsonObject completion = peer.result("completion/complete", Json.createObjectBuilder()
                .add("ref", Json.createObjectBuilder().add("type", "ref/prompt").add("name", target.name("completable-prompt")))
                .add("argument", Json.createObjectBuilder().add("name", "department").add("value", "E")).build());
        assertFalse(completion.getJsonObject("completion").getJsonArray("values").isEmpty(), completion::toString);
    }

    /** Sampling and elicitation while a call is served, roots when the client says they changed. */
    private static void clientAnswers(McpClientPeer peer, Target target) {
        JsonObject sampled = peer.result("tools/call", call(target.name("trigger-sampling-request"),
                args().add("prompt", "Say something").add("maxTokens", 20), null));
        assertTrue(sampled.toString().contains("sampled by the schema IT"), sampled::toString);
        JsonObject elicited = peer.result("tools/call", call(target.name("trigger-elicitation-request"), args(), null));
        assertTrue(elicited.toString().contains("decline"), elicited::toString);
        int askedBefore = peer.wire.methods(Sender.SERVER).stream().filter("roots/list"::equals).toList().size();
        peer.notify("notifications/roots/list_changed", null);
        peer.wire.await(Sender.SERVER, m -> "roots/list".equals(m.getString("method", null))
                && peer.wire.methods(Sender.SERVER).stream().filter("roots/list"::equals).count() > askedBefore, NOTICE, "roots/list");
        // the answer reached the backend, which says so in a log message
        peer.wire.await(Sender.SERVER, m -> "notifications/message".equals(m.getString("method", null))
                && m.toString().contains("Roots updated"), NOTICE, "the backend's note that it got the roots");
    }

    /** A long call cancelled after its first progress: the backend is told, and the client gets no answer to it. */
    private static void cancellation(McpClientPeer peer, Target target) {
        int cancelledBefore = target.backend().sent("notifications/cancelled").size();
        McpClientPeer.Started call = peer.start("tools/call", call(target.name("trigger-long-running-operation"),
                args().add("duration", 30).add("steps", 30), "to-cancel"));
        peer.wire.await(Sender.SERVER, m -> "notifications/progress".equals(m.getString("method", null))
                && "to-cancel".equals(m.getJsonObject("params").getString("progressToken", null)), NOTICE, "progress of the call to cancel");
        peer.notify("notifications/cancelled", Json.createObjectBuilder().add("requestId", call.id())
                .add("reason", "the schema IT cancels").build());
        target.backend().awaitSent("notifications/cancelled", cancelledBefore, NOTICE);
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, peer.result("ping", null), "the session goes on");
        assertFalse(call.response().isDone() && call.response().join().containsKey("result"),
                "a cancelled call is not answered with a result: " + call.response());
    }

    private static void errors(McpClientPeer peer, Target target) {
        assertEquals(-32601, code(peer.requestInvalid("no/such/method", null)));
        assertEquals(-32602, code(peer.request("prompts/get", Json.createObjectBuilder().add("name", target.name("no-such-prompt")).build())));
        JsonObject missingName = peer.requestInvalid("tools/call", Json.createObjectBuilder().add("arguments", args()).build());
        assertTrue(missingName.containsKey("error"), missingName::toString);
        JsonObject badUri = peer.request("resources/read", Json.createObjectBuilder().add("uri", "no-such://resource").build());
        assertTrue(badUri.containsKey("error"), badUri::toString);
        if (peer instanceof HttpMcpClientPeer h) {
            HttpMcpClientPeer.RawAnswer parseError = h.postRaw("{\"jsonrpc\": \"2.0\", \"id\": 99, ");
            assertEquals(400, parseError.status());
            assertEquals(-32700, code(parseError.message()));
        }
    }

    /** Turns one of server-everything's periodic notifications on, waits for one, and turns it off again. */
    private static void toggled(McpClientPeer peer, Target target, String tool, Predicate<JsonObject> notification,
                                String what) {
        peer.result("tools/call", call(target.name(tool), args(), null));
        try {
            peer.wire.await(Sender.SERVER, notification, NOTICE, what);
        } finally {
            peer.result("tools/call", call(target.name(tool), args(), null));
        }
    }

    /** Every item of a list, following nextCursor. */
    private static List<JsonObject> pages(McpClientPeer peer, String method, String field) {
        List<JsonObject> items = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonObject result = peer.result(method, cursor == null ? null : Json.createObjectBuilder().add("cursor", cursor).build());
            result.getJsonArray(field).forEach(v -> items.add(v.asJsonObject()));
            cursor = result.getString("nextCursor", null);
        } while (cursor != null && ++pages < 100);
        return items;
    }

    private static JsonObject call(String name, JsonObjectBuilder arguments, String progressToken) {
        JsonObjectBuilder params = Json.createObjectBuilder().add("name", name).add("arguments", arguments);
        if (progressToken != null) {
            params.add("_meta", Json.createObjectBuilder().add("progressToken", progressToken));
        }
        return params.build();
    }

    private static JsonObjectBuilder args() {
        return Json.createObjectBuilder();
    }

    private static int code(JsonObject response) {
        assertTrue(response.containsKey("error"), () -> "expected an error: " + response);
        return response.getJsonObject("error").getInt("code");
    }

    /** Over HTTP the gateway's messages came as JSON bodies, as SSE answers to POSTs and on the GET stream. */
    private static void assertCarriedEveryWay(HttpMcpClientPeer peer) {
        assertEquals(Set.of("json", "post-sse", "get-sse"), new TreeSet<>(peer.carriers), peer.carriers::toString);
        assertTrue(peer.onServerStream.stream().anyMatch(m -> "roots/list".equals(m.getString("method", null))),
                () -> "a request of the backend's reached the client on the GET stream: " + peer.onServerStream);
    }

    private static void assertClientSideValid(McpClientPeer peer) {
        WireLog wire = peer.wire;
        assertTrue(wire.entries().size() >= 6, wire::toString);
        List<String> problems = wire.problems(peer.version());
        assertTrue(problems.isEmpty(), () -> problems.size() + " message(s) of " + wire.entries().size()
                + " are not valid " + peer.version() + ":\n" + String.join("\n", problems));
    }

    /** The check covered what a full session makes the gateway send a backend, answers to its requests included. */
    private static void assertBackendSideCovered(TappedBackend backend) {
        Set<String> sent = new TreeSet<>();
        boolean answered = false;
        for (WireLog session : backend.sessions().values()) {
            sent.addAll(session.methods(Sender.CLIENT));
            answered |= session.entries().stream().anyMatch(e -> e.sender() == Sender.CLIENT && e.method() == null
                    && e.message().containsKey("result"));
        }
        assertTrue(sent.containsAll(Set.of("initialize", "notifications/initialized", "tools/list", "tools/call",
                "resources/list", "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe",
                "prompts/list", "prompts/get", "completion/complete", "logging/setLevel", "notifications/cancelled",
                "notifications/roots/list_changed")), sent::toString);
        assertTrue(answered, "the gateway answered the backend's requests");
    }

    private static void assertBackendSideValid(TappedBackend backend) {
        List<String> problems = backend.backendSideProblems();
        assertTrue(problems.isEmpty(), () -> problems.size() + " message(s) the gateway sent " + backend.name()
                + " are not valid:\n" + String.join("\n", problems));
    }
}
