package dev.switchboard.it;

import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Registered servers against real server-everything backends in all three transports, through the REST API of
 * the running server: test connection, list tools, errors that say what failed, reconnect, idle reaping.
 */
class BackendConnectionIT {

    static String admin;
    static String alice;
    static ServerEverything sse;
    static ServerEverything streamable;

    @BeforeAll
    static void start() {
        admin = Api.adminToken();
        alice = Api.newUser("default");
        sse = ServerEverything.start(ServerEverything.Mode.SSE);
        streamable = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
    }

    @AfterAll
    static void stop() {
        if (sse != null) {
            sse.close();
        }
        if (streamable != null) {
            streamable.close();
        }
    }

    static long register(String token, JsonObject body) {
        return Api.post("/api/mcp-servers", token, body).expect(201).json().getJsonNumber("id").longValue();
    }

    static String name(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 6);
    }

    @Test
    void stdioServerConnectsAndListsTools() {
        String name = name("stdio");
        long id = register(admin, Json.createObjectBuilder().add("name", name).add("command", "node")
                .add("args", Json.createArrayBuilder().add(ServerEverything.entryPoint().toString()).add("stdio")).build());
        assertConnects(admin, id);
        assertListsTools(admin, id, name);
        Api.delete("/api/mcp-servers/" + id, admin).expect(204);
    }

    @Test
    void sseServerConnectsAndListsTools() {
        String name = name("sse");
        long id = register(alice, Json.createObjectBuilder().add("name", name).add("baseUrl", sse.url()).build());
        assertEquals("sse", Api.get("/api/mcp-servers/" + id, alice).json().getString("type"));
        assertConnects(alice, id);
        assertListsTools(alice, id, name);
    }

    @Test
    void streamableHttpServerConnectsAndListsTools() {
        String name = name("http");
        long id = register(alice, Json.createObjectBuilder().add("name", name).add("baseUrl", streamable.url()).build());
        assertEquals("streamableHttp", Api.get("/api/mcp-servers/" + id, alice).json().getString("type"));
        assertConnects(alice, id);
        assertListsTools(alice, id, name);
    }

    @Test
    void toolFlagsFollowTheServerSettings() {
        String name = name("flags");
        long id = register(alice, Json.createObjectBuilder().add("name", name).add("baseUrl", streamable.url())
                .add("disabledTools", Json.createArrayBuilder().add("echo"))
                .add("autoApproveTools", Json.createArrayBuilder().add("get-sum")).build());
        JsonObject echo = tool(alice, id, "echo");
        assertFalse(echo.getBoolean("isEnabled"));
        assertFalse(echo.getBoolean("isAutoApprove"));
        assertTrue(tool(alice, id, "get-sum").getBoolean("isAutoApprove"));
        Api.put("/api/mcp-servers/" + id, alice, Json.createObjectBuilder().add("disabledTools", JsonValue.EMPTY_JSON_ARRAY).build()).expect(200);
        assertTrue(tool(alice, id, "echo").getBoolean("isEnabled"));
    }

    @Test
    void failuresSayWhatFailed() {
        assertFailure(http("http://127.0.0.1:" + ServerEverything.freePort() + "/mcp"), "connect_refused");
        assertFailure(http("http://no-such-host.invalid/mcp"), "dns");
        JsonObject notFound = assertFailure(http("http://127.0.0.1:" + streamable.port() + "/nothing-here/mcp"), "http_status");
        assertEquals(404, notFound.getInt("httpStatus"));
        long id = register(admin, Json.createObjectBuilder().add("name", name("nocmd")).add("command", "no-such-command-xyz").build());
        JsonObject missing = Api.post("/api/mcp-servers/" + id + "/connect", admin, "").expect(200).json();
        assertFalse(missing.getBoolean("success"));
        assertEquals("connect_refused", missing.getJsonObject("error").getString("kind"));
        Api.Reply tools = Api.get("/api/mcp-servers/" + id + "/tools", admin).expect(502);
        assertEquals("backend_unavailable", tools.errorCode());
        assertEquals("error", Api.get("/api/mcp-servers/" + id, admin).json().getString("status"));
    }

    @Test
    void aBackendThatDiesIsReportedAndReconnectedWhenItIsBack() {
        try (ServerEverything own = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP)) {
            long id = register(alice, Json.createObjectBuilder().add("name", name("dies")).add("baseUrl", own.url()).build());
            Api.get("/api/mcp-servers/" + id + "/tools", alice).expect(200);
            own.kill();
            // editing the server drops the cached session, so the next listing must really connect
            Api.put("/api/mcp-servers/" + id, alice, Json.createObjectBuilder().add("timeout", 5).build()).expect(200);
            assertEquals("backend_unavailable", Api.get("/api/mcp-servers/" + id + "/tools", alice).expect(502).errorCode());
            assertEquals("error", Api.get("/api/mcp-servers/" + id, alice).json().getString("status"));
            own.restart();
            Api.get("/api/mcp-servers/" + id + "/tools", alice).expect(200);
            assertEquals("connected", Api.get("/api/mcp-servers/" + id, alice).json().getString("status"));
        }
    }

    @Test
    void idleConnectionsAreClosedByTheReaper() {
        // the test server runs with switchboard.pool.idle-timeout=PT4S and a reaper every second
        long id = register(alice, Json.createObjectBuilder().add("name", name("idle")).add("baseUrl", streamable.url()).build());
        Api.get("/api/mcp-servers/" + id + "/tools", alice).expect(200);
        assertEquals("connected", Api.get("/api/mcp-servers/" + id, alice).json().getString("status"));
        awaitTrue(() -> Api.get("/api/mcp-servers/" + id, alice).json().getString("status").equals("disconnected"),
                Duration.ofSeconds(20), "connection reaped after the idle timeout");
        Api.get("/api/mcp-servers/" + id + "/tools", alice).expect(200);
        assertEquals("connected", Api.get("/api/mcp-servers/" + id, alice).json().getString("status"), "reconnects on use");
    }

    @Test
    void poolFiguresArePublishedAsMetrics() {
        long id = register(alice, Json.createObjectBuilder().add("name", name("metrics")).add("baseUrl", streamable.url()).build());
        Api.get("/api/mcp-servers/" + id + "/tools", alice).expect(200);
        String metrics = Api.get("/metrics?scope=application", null).expect(200).text();
        assertTrue(metrics.contains("switchboard_pool_connections{mp_scope=\"application\",state=\"connected\",}"), metrics);
        assertTrue(metrics.contains("switchboard_pool_calls"), metrics);
        assertTrue(metrics.contains("switchboard_pool_failed_calls"), metrics);
    }

    private JsonObject http(String url) {
        return Json.createObjectBuilder().add("name", name("bad")).add("baseUrl", url).build();
    }

    private JsonObject assertFailure(JsonObject server, String kind) {
        long id = register(alice, server);
        JsonObject result = Api.post("/api/mcp-servers/" + id + "/connect", alice, "").expect(200).json();
        assertFalse(result.getBoolean("success"), result.toString());
        JsonObject error = result.getJsonObject("error");
        assertEquals(kind, error.getString("kind"), result.toString());
        assertFalse(error.getString("message").isBlank());
        return error;
    }

    private static void assertConnects(String token, long id) {
        JsonObject result = Api.post("/api/mcp-servers/" + id + "/connect", token, "").expect(200).json();
        assertTrue(result.getBoolean("success"), result.toString());
        assertEquals("2025-11-25", result.getString("protocolVersion"));
        assertEquals("mcp-servers/everything", result.getJsonObject("serverInfo").getString("name"));
        assertTrue(result.getInt("toolCount") >= 10, result.toString());
        assertTrue(result.getJsonNumber("latencyMs").longValue() >= 0);
    }

    private static void assertListsTools(String token, long id, String serverName) {
        JsonObject echo = tool(token, id, "echo");
        assertEquals("mcp__" + serverName + "__echo", echo.getString("displayName"));
        assertEquals(serverName, echo.getString("serverName"));
        assertEquals(id, echo.getJsonNumber("serverId").longValue());
        assertTrue(echo.getBoolean("isEnabled"));
        assertFalse(echo.getString("description").isBlank());
        assertEquals("object", echo.getJsonObject("inputSchema").getString("type"));
        JsonObject server = Api.get("/api/mcp-servers/" + id, token).json();
        assertEquals("connected", server.getString("status"));
        // the count is shown while a list is cached; a backend's tools/list_changed may already have dropped it
        assertTrue(!server.containsKey("toolCount") || server.getInt("toolCount") >= 10, server.toString());
    }

    private static JsonObject tool(String token, long id, String tool) {
        return Api.get("/api/mcp-servers/" + id + "/tools", token).expect(200).json().getJsonArray("data").stream()
                .map(JsonValue::asJsonObject).filter(t -> t.getString("name").equals(tool)).findFirst()
                .orElseThrow(() -> new AssertionError("tool " + tool + " not listed"));
    }

    private static void awaitTrue(Supplier<Boolean> condition, Duration within, String what) {
        Instant deadline = Instant.now().plus(within);
        while (Instant.now().isBefore(deadline)) {
            if (condition.get()) {
                return;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("not within " + within + ": " + what);
    }
}
