package dev.switchboard.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A restart of the server keeps everything registered, tokens issued before it stay valid, a gateway session open at
 * the restart is served again while one that ended before it stays unknown (404), and the built-in demo server an
 * admin switched off stays off and is not registered a second time.
 */
class ServerRestartIT {

    @Test
    void registrationsAndTokensSurviveARestart() throws Exception {
        String admin = Api.adminToken();
        String name = "restart-" + UUID.randomUUID().toString().substring(0, 6);
        JsonObject server = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", name)
                .add("command", "node").add("args", Json.createArrayBuilder().add("x.js"))
                .add("env", Json.createObjectBuilder().add("API_TOKEN", "secret-value-for-restart")).build()).expect(201).json();
        long serverId = server.getJsonNumber("id").longValue();
        JsonObject assistant = Api.post("/api/assistants", admin, Json.createObjectBuilder().add("name", name)
                .add("mcpServerIds", Json.createArrayBuilder().add(serverId)).build()).expect(201).json();
        String user = Api.newUser("default");
        String open = GatewaySessionsIT.open(user, "survivor");
        String ended = GatewaySessionsIT.open(user, "gone");
        assertEquals(200, GatewaySessionsIT.delete(user, ended));

        long demoId = demoServers(admin).get(0).getJsonNumber("id").longValue();
        Api.put("/api/mcp-servers/" + demoId, admin, Json.createObjectBuilder().add("isActive", false).build()).expect(200);

        restartServer();

        List<JsonObject> demos = demoServers(admin);
        assertEquals(1, demos.size(), demos::toString);
        assertEquals(demoId, demos.get(0).getJsonNumber("id").longValue());
        assertFalse(demos.get(0).getBoolean("isActive"), "the admin's choice stays");
        Api.put("/api/mcp-servers/" + demoId, admin, Json.createObjectBuilder().add("isActive", true).build()).expect(200);
        assertEquals(200, GatewaySessionsIT.ping(user, open), "the open session is taken up again");
        assertEquals(404, GatewaySessionsIT.ping(user, ended), "the ended session stays ended");
        assertEquals(404, GatewaySessionsIT.ping(Api.newUser("default"), open), "and answers only to its own caller");

        JsonObject after = Api.get("/api/mcp-servers/" + serverId, admin).expect(200).json();
        assertEquals(name, after.getString("name"));
        assertEquals("x.js", after.getJsonArray("args").getString(0));
        assertEquals(server.getJsonObject("env"), after.getJsonObject("env"), "secret still decrypts to the same masked value");
        JsonObject servers = Api.get("/api/assistants/" + assistant.getJsonNumber("id") + "/mcp-servers", admin).expect(200).json();
        assertEquals(serverId, servers.getJsonArray("mcpServerIds").getJsonNumber(0).longValue());
    }

    private static List<JsonObject> demoServers(String admin) {
        return Api.get("/api/mcp-servers", admin).expect(200).json().getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .filter(s -> s.getString("name").equals("sqlquery") && s.getString("type").equals("builtin")).toList();
    }

    private static void restartServer() throws Exception {
        restartServer(Map.of());
    }

    /** Restarts the build's test server with these environment variables added (MicroProfile Config reads them). */
    static void restartServer(Map<String, String> environment) throws Exception {
        Path wlp = Path.of("target/liberty/wlp/bin/server");
        assertTrue(Files.isExecutable(wlp), "Liberty of the build at " + wlp.toAbsolutePath());
        run(Map.of(), wlp.toString(), "stop", "switchboard-it");
        run(environment, wlp.toString(), "start", "switchboard-it");
        Api.awaitRestart();
    }

    private static void run(Map<String, String> environment, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " took too long");
        assertEquals(0, process.exitValue(), String.join(" ", command));
    }
}
