package dev.switchboard.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A restart of the server keeps everything registered, and tokens issued before it stay valid. */
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

        restartServer();

        JsonObject after = Api.get("/api/mcp-servers/" + serverId, admin).expect(200).json();
        assertEquals(name, after.getString("name"));
        assertEquals("x.js", after.getJsonArray("args").getString(0));
        assertEquals(server.getJsonObject("env"), after.getJsonObject("env"), "secret still decrypts to the same masked value");
        JsonObject servers = Api.get("/api/assistants/" + assistant.getJsonNumber("id") + "/mcp-servers", admin).expect(200).json();
        assertEquals(serverId, servers.getJsonArray("mcpServerIds").getJsonNumber(0).longValue());
    }

    private static void restartServer() throws Exception {
        Path wlp = Path.of("target/liberty/wlp/bin/server");
        assertTrue(Files.isExecutable(wlp), "Liberty of the build at " + wlp.toAbsolutePath());
        run(wlp.toString(), "stop", "switchboard-it");
        run(wlp.toString(), "start", "switchboard-it");
        Api.awaitRestart();
    }

    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).inheritIO().start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " took too long");
        assertEquals(0, process.exitValue(), String.join(" ", command));
    }
}
