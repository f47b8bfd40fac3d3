package dev.switchboard.it.registry;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.Servers;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/assistants} and {@code /api/assistants/{id}/mcp-servers}: CRUD, ownership, bad input. */
class AssistantApiIT {

    @RegisterExtension
    static final NewUser alice = new NewUser();
    @RegisterExtension
    static final NewUser bob = new NewUser();

    static long server(String token) {
        return Servers.register(token, Json.createObjectBuilder().add("name", Names.unique("srv"))
                .add("baseUrl", "http://127.0.0.1:9/mcp").build());
    }

    static long ids(JsonObject json, int index) {
        return json.getJsonArray("mcpServerIds").getJsonNumber(index).longValue();
    }

    @Test
    void createReadUpdateDeleteWithServers() {
        long s1 = server(alice.token());
        long s2 = server(alice.token());
        JsonObject created = Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", "Analyst")
                .add("systemPrompt", "你是数据分析助手").add("model", "gpt-4o-mini").add("knowledgeBaseEnabled", true)
                .add("mcpServerIds", Json.createArrayBuilder().add(s1)).build()).expect(201).json();
        long id = created.getJsonNumber("id").longValue();
        assertEquals("你是数据分析助手", created.getString("systemPrompt"));
        assertTrue(created.getBoolean("knowledgeBaseEnabled"));
        assertEquals(s1, ids(created, 0));

        JsonObject servers = Api.put("/api/assistants/" + id + "/mcp-servers", alice.token(), Json.createObjectBuilder()
                .add("mcpServerIds", Json.createArrayBuilder().add(s1).add(s2)).build()).expect(200).json();
        assertEquals(2, servers.getJsonArray("mcpServerIds").size());
        assertEquals(2, Api.get("/api/assistants/" + id + "/mcp-servers", alice.token()).expect(200).json().getJsonArray("mcpServerIds").size());

        JsonObject renamed = Api.put("/api/assistants/" + id, alice.token(), Json.createObjectBuilder().add("name", "Analyst 2").build()).expect(200).json();
        assertEquals("Analyst 2", renamed.getString("name"));
        assertEquals("gpt-4o-mini", renamed.getString("model"), "fields left out stay");

        Api.delete("/api/mcp-servers/" + s1, alice.token()).expect(204);
        JsonObject afterDelete = Api.get("/api/assistants/" + id + "/mcp-servers", alice.token()).expect(200).json();
        assertEquals(1, afterDelete.getJsonArray("mcpServerIds").size(), "a deleted server drops out");
        assertEquals(s2, ids(afterDelete, 0));

        assertTrue(Api.get("/api/assistants", alice.token()).expect(200).text().contains("Analyst 2"));
        Api.delete("/api/assistants/" + id, alice.token()).expect(204);
        Api.get("/api/assistants/" + id, alice.token()).expect(404);
    }

    @Test
    void othersAssistantsAndServersAreOutOfReach() {
        long mine = Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", "Mine").build()).expect(201)
                .json().getJsonNumber("id").longValue();
        assertEquals("not_found", Api.get("/api/assistants/" + mine, bob.token()).expect(404).errorCode());
        Api.put("/api/assistants/" + mine, bob.token(), Json.createObjectBuilder().add("name", "Stolen").build()).expect(404);
        Api.get("/api/assistants/" + mine + "/mcp-servers", bob.token()).expect(404);
        Api.delete("/api/assistants/" + mine, bob.token()).expect(404);
        assertFalse(Api.get("/api/assistants", bob.token()).expect(200).text().contains("\"Mine\""));

        long bobsServer = server(bob.token());
        assertEquals("unknown_server", Api.put("/api/assistants/" + mine + "/mcp-servers", alice.token(), Json.createObjectBuilder()
                .add("mcpServerIds", Json.createArrayBuilder().add(bobsServer)).build()).expect(400).errorCode());
        assertEquals("Mine", Api.get("/api/assistants/" + mine, alice.token()).expect(200).json().getString("name"));
        assertEquals(0, Api.get("/api/assistants/" + mine, alice.token()).json().getJsonArray("mcpServerIds").size());
    }

    @Test
    void badInputIsRefusedAndStoresNothing() {
        int before = Api.get("/api/assistants", alice.token()).expect(200).json().getJsonArray("data").size();
        assertEquals("invalid_json", Api.post("/api/assistants", alice.token(), "{").expect(400).errorCode());
        assertEquals("missing_field", Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("model", "m").build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", 42).build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", "x").add("knowledgeBaseEnabled", "yes").build()).expect(400).errorCode());
        assertEquals("unknown_field", Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", "x").add("temperature", 1).build()).expect(400).errorCode());
        assertEquals("too_long", Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", "x".repeat(101)).build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", "x").add("mcpServerIds", "1,2").build()).expect(400).errorCode());
        assertEquals("unknown_server", Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", "x")
                .add("mcpServerIds", Json.createArrayBuilder().add(999_999_999L)).build()).expect(400).errorCode());
        assertEquals(before, Api.get("/api/assistants", alice.token()).json().getJsonArray("data").size(), "nothing half-created");
        long id = Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", "ok").build()).expect(201).json().getJsonNumber("id").longValue();
        assertEquals("missing_field", Api.put("/api/assistants/" + id + "/mcp-servers", alice.token(), Json.createObjectBuilder().build()).expect(400).errorCode());
        assertEquals("unknown_field", Api.put("/api/assistants/" + id + "/mcp-servers", alice.token(), Json.createObjectBuilder()
                .add("servers", Json.createArrayBuilder()).build()).expect(400).errorCode());
        assertEquals("invalid_name", Api.put("/api/assistants/" + id, alice.token(), Json.createObjectBuilder().add("name", " ").build()).expect(400).errorCode());
        assertEquals(401, Api.get("/api/assistants", null).status());
    }
}
