package dev.switchboard.it.registry;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.RunningEverything;
import dev.switchboard.it.support.Servers;
import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Registered servers against real server-everything backends in all three transports, through the REST API of
 * the running server: test connection, list tools, errors that say what failed, reconnect, idle reaping.
 */
class BackendConnectionIT {

    @RegisterExtension
    static final RunningEverything sse = new RunningEverything(ServerEverything.Mode.SSE);
    @RegisterExtension
    static final RunningEverything streamable = RunningEverything.streamableHttp();
    static String admin;
    @RegisterExtension
    static final NewUser alice = new NewUser();

    @BeforeAll
    static void users() {
        admin = Api.adminToken();
    }

    @Test
    void stdioServerConnectsAndListsTools() {
        String name = Names.unique("stdio");
        long id = Servers.register(admin, Json.createObjectBuilder().add("name", name).add("command", "node")
                .add("args", Json.createArrayBuilder().add(ServerEverything.entryPoint().toString()).add("stdio")).build());
        assertConnects(admin, id);
        assertListsTools(admin, id, name);
        Api.delete("/api/mcp-servers/" + id, admin).expect(204);
    }

    @Test
    void sseServerConnectsAndListsTools() {
        String name = Names.unique("sse");
        long id = Servers.register(alice.token(), Json.createObjectBuilder().add("name", name).add("baseUrl", sse.url()).build());
        assertEquals("sse", Api.get("/api/mcp-servers/" + id, alice.token()).json().getString("type"));
        assertConnects(alice.token(), id);
        assertListsTools(alice.token(), id, name);
    }

    @Test
    void streamableHttpServerConnectsAndListsTools() {
        String name = Names.unique("http");
        long id = Servers.register(alice.token(), Json.createObjectBuilder().add("name", name).add("baseUrl", streamable.url()).build());
        assertEquals("streamableHttp", Api.get("/api/mcp-servers/" + id, alice.token()).json().getString("type"));
        assertConnects(alice.token(), id);
        assertListsTools(alice.token(), id, name);
    }

    @Test
    void toolFlagsFollowTheServerSettings() {
        String name = Names.unique("flags");
        long id = Servers.register(alice.token(), Json.createObjectBuilder().add("name", name).add("baseUrl", streamable.url())
                .add("disabledTools", Json.createArrayBuilder().add("echo"))
                .add("autoApproveTools", Json.createArrayBuilder().add("get-sum")).build());
        JsonObject echo = tool(alice.token(), id, "echo");
        assertFalse(echo.getBoolean("isEnabled"));
        assertFalse(echo.getBoolean("isAutoApprove"));
        assertTrue(tool(alice.token(), id, "get-sum").getBoolean("isAutoApprove"));
        Api.put("/api/mcp-servers/" + id, alice.token(), Json.createObjectBuilder().add("disabledTools", JsonValue.EMPTY_JSON_ARRAY).build()).expect(200);
        assertTrue(tool(alice.token(), id, "echo").getBoolean("isEnabled"));
    }

    @Test
    void failuresSayWhatFailed() {
        assertFailure(http("http://127.0.0.1:" + ServerEverything.freePort() + "/mcp"), "connect_refused");
        assertFailure(http("http://no-such-host.invalid/mcp"), "dns");
        JsonObject notFound = assertFailure(http("http://127.0.0.1:" + streamable.port() + "/nothing-here/mcp"), "http_status");
        assertEquals(404, notFound.getInt("httpStatus"));
        long id = Servers.register(admin, Json.createObjectBuilder().add("name", Names.unique("nocmd")).add("command", "no-such-command-xyz").build());
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
            long id = Servers.register(alice.token(), Json.createObjectBuilder().add("name", Names.unique("dies")).add("baseUrl", own.url()).build());
            Api.get("/api/mcp-servers/" + id + "/tools", alice.token()).expect(200);
            own.kill();
            // editing the server drops the cached session, so the next listing must really connect
            Api.put("/api/mcp-servers/" + id, alice.token(), Json.createObjectBuilder().add("timeout", 5).build()).expect(200);
            assertEquals("backend_unavailable", Api.get("/api/mcp-servers/" + id + "/tools", alice.token()).expect(502).errorCode());
            assertEquals("error", Api.get("/api/mcp-servers/" + id, alice.token()).json().getString("status"));
            own.restart();
            Api.get("/api/mcp-servers/" + id + "/tools", alice.token()).expect(200);
            assertEquals("connected", Api.get("/api/mcp-servers/" + id, alice.token()).json().getString("status"));
        }
    }

    @Test
    void idleConnectionsAreClosedByTheReaper() {
        // the test server runs with switchboard.pool.idle-timeout=PT4S and a reaper every second
        long id = Servers.register(alice.token(), Json.createObjectBuilder().add("name", Names.unique("idle")).add("baseUrl", streamable.url()).build());
        Api.get("/api/mcp-servers/" + id + "/tools", alice.token()).expect(200);
        assertEquals("connected", Api.get("/api/mcp-servers/" + id, alice.token()).json().getString("status"));
        awaitTrue(() -> Api.get("/api/mcp-servers/" + id, alice.token()).json().getString("status").equals("disconnected"),
                Duration.ofSeconds(20), "connection reaped after the idle timeout");
        Api.get("/api/mcp-servers/" + id + "/tools", alice.token()).expect(200);
        assertEquals("connected", Api.get("/api/mcp-servers/" + id, alice.token()).json().getString("status"), "reconnects on use");
    }

    @Test
    void poolFiguresArePublishedAsMetrics() {
        long id = Servers.register(alice.token(), Json.createObjectBuilder().add("name", Names.unique("metrics")).add("baseUrl", streamable.url()).build());
        Api.get("/api/mcp-servers/" + id + "/tools", alice.token()).expect(200);
        String metrics = Api.get("/metrics?scope=application", null).expect(200).text();
        assertTrue(metrics.contains("switchboard_pool_connections{mp_scope=\"application\",state=\"connected\",}"), metrics);
        assertTrue(metrics.contains("switchboard_pool_calls"), metrics);
        assertTrue(metrics.contains("switchboard_pool_failed_calls"), metrics);
    }

    private JsonObject http(String url) {
        return Json.createObjectBuilder().add("name", Names.unique("bad")).add("baseUrl", url).build();
    }

    private JsonObject assertFailure(JsonObject server, String kind) {
        long id = Servers.register(alice.token(), server);
        JsonObject result = Api.post("/api/mcp-servers/" + id + "/connect", alice.token(), "").expect(200).json();
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
