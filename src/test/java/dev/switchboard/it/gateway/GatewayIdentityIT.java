package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every MCP endpoint refuses a caller without credentials (anonymous MCP is off, as by default): HTTP with 401 and
 * a {@code WWW-Authenticate} challenge on every method of {@code /mcp} and {@code /mcp/servers/{name}}. (The
 * WebSocket's -32001 for a tokenless socket is in {@code GatewaySocketIT}.)
 */
class GatewayIdentityIT {

    @BeforeAll
    static void ready() {
        Api.awaitReady();
    }

    static void assertChallenged(HttpResponse<String> response, String what) {
        assertEquals(401, response.statusCode(), what + ": " + response.body());
        String challenge = response.headers().firstValue("WWW-Authenticate").orElse("");
        assertTrue(challenge.startsWith("Bearer"), what + " carries a Bearer challenge, got '" + challenge + "'");
    }

    @Test
    void httpAnswers401WithAChallengeOnBothPathsAndEveryMethod() {
        String init = McpHttp.initializeBody("2025-11-25");
        for (String path : new String[] {"/mcp", "/mcp/servers/anything"}) {
            assertChallenged(McpHttp.withoutToken("POST", path, init), "POST " + path);
            assertChallenged(McpHttp.withoutToken("GET", path, null), "GET " + path);
            assertChallenged(McpHttp.withoutToken("DELETE", path, null), "DELETE " + path);
        }
    }

    @Test
    void aRevokedApiKeyIsChallengedToo() {
        String user = Api.newUser("default");
        JsonObject key = Api.post("/api/api-keys", user, jakarta.json.Json.createObjectBuilder().add("name", "revoked").build())
                .expect(201).json();
        // used first, so the gateway has just seen it active: the revocation must still apply to the next request
        HttpResponse<String> before = McpHttp.initialize(key.getString("key"), null);
        assertEquals(200, before.statusCode(), before::body);
        Api.delete("/api/api-keys/" + key.getJsonNumber("id").longValue(), user).expect(204);
        assertChallenged(McpHttp.initialize(key.getString("key"), null), "revoked API key");
    }
}
