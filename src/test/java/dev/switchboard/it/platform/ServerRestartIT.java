package dev.switchboard.it.platform;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.TestServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A restart of the server keeps everything registered, tokens issued before it stay valid, a gateway session open at
 * the restart is served again while one that ended before it stays unknown (404), and the built-in demo server an
 * admin switched off stays off and is not registered a second time.
 */
class ServerRestartIT {

    @Test
    void registrationsAndTokensSurviveARestart() throws Exception {
        String admin = Api.adminToken();
        String name = Names.unique("restart");
        JsonObject server = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", name)
                .add("command", "node").add("args", Json.createArrayBuilder().add("x.js"))
                .add("env", Json.createObjectBuilder().add("API_TOKEN", "secret-value-for-restart")).build()).expect(201).json();
        long serverId = server.getJsonNumber("id").longValue();
        JsonObject assistant = Api.post("/api/assistants", admin, Json.createObjectBuilder().add("name", name)
                .add("mcpServerIds", Json.createArrayBuilder().add(serverId)).build()).expect(201).json();
        String user = Api.newUser("default");
        String open = McpHttp.openSession(user, "survivor");
        String ended = McpHttp.openSession(user, "gone");
        assertEquals(200, McpHttp.endSession(user, ended));

        long demoId = demoServers(admin).get(0).getJsonNumber("id").longValue();
        Api.put("/api/mcp-servers/" + demoId, admin, Json.createObjectBuilder().add("isActive", false).build()).expect(200);

        TestServer.restart(Map.of());

        List<JsonObject> demos = demoServers(admin);
        assertEquals(1, demos.size(), demos::toString);
        assertEquals(demoId, demos.get(0).getJsonNumber("id").longValue());
        assertFalse(demos.get(0).getBoolean("isActive"), "the admin's choice stays");
        Api.put("/api/mcp-servers/" + demoId, admin, Json.createObjectBuilder().add("isActive", true).build()).expect(200);
        assertEquals(200, McpHttp.ping(user, open), "the open session is taken up again");
        assertEquals(404, McpHttp.ping(user, ended), "the ended session stays ended");
        assertEquals(404, McpHttp.ping(Api.newUser("default"), open), "and answers only to its own caller");

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
}
