package dev.switchboard.it.support;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.function.Predicate;

/** Registering and removing MCP servers through {@code /api/mcp-servers}, as the tests set up their backends. */
public final class Servers {

    /**
     * The prefix of the shared servers the gateway tests register, so a test can remove what an interrupted run
     * left (the IT database outlives a run) before it counts what {@code /mcp} aggregates.
     */
    public static final String GATEWAY_PREFIX = "gw-";

    private Servers() {
    }

    /** Registers the server as {@code token}; its id. */
    public static long register(String token, JsonObject server) {
        return Api.post("/api/mcp-servers", token, server).expect(201).json().getJsonNumber("id").longValue();
    }

    /** Removes, as admin, every server the admin sees whose name passes. */
    public static void removeNamed(Predicate<String> name) {
        String admin = Api.adminToken();
        for (JsonValue server : Api.get("/api/mcp-servers", admin).expect(200).json().getJsonArray("data")) {
            JsonObject s = server.asJsonObject();
            if (name.test(s.getString("name"))) {
                Api.delete("/api/mcp-servers/" + s.getJsonNumber("id"), admin).expect(204);
            }
        }
    }
}
