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
 * a {@code WWW-Authenticate} challenge naming the endpoint's OAuth protected resource metadata on every method of
 * {@code /mcp} and {@code /mcp/servers/{name}}, whose documents are public. (The
 * WebSocket's -32001 for a tokenless socket is in {@code GatewaySocketIT}.)
 */
class GatewayIdentityIT {

    @BeforeAll
    static void ready() {
        Api.awaitReady();
    }

    static void assertChallenged(HttpResponse<String> response, String what) {
        assertChallenged(response, what, "/mcp");
    }

    /** A 401 whose Bearer challenge points at the protected resource metadata of {@code resourcePath}. */
    static void assertChallenged(HttpResponse<String> response, String what, String resourcePath) {
        assertEquals(401, response.statusCode(), what + ": " + response.body());
        String challenge = response.headers().firstValue("WWW-Authenticate").orElse("");
        assertTrue(challenge.startsWith("Bearer"), what + " carries a Bearer challenge, got '" + challenge + "'");
        assertTrue(challenge.contains("resource_metadata=\"" + Api.BASE + "/.well-known/oauth-protected-resource" + resourcePath + "\""),
                what + " names its protected resource metadata, got '" + challenge + "'");
    }

    @Test
    void httpAnswers401WithAChallengeOnBothPathsAndEveryMethod() {
        String init = McpHttp.initializeBody("2025-11-25");
        for (String path : new String[] {"/mcp", "/mcp/servers/anything"}) {
            assertChallenged(McpHttp.withoutToken("POST", path, init), "POST " + path, path);
            assertChallenged(McpHttp.withoutToken("GET", path, null), "GET " + path, path);
            assertChallenged(McpHttp.withoutToken("DELETE", path, null), "DELETE " + path, path);
        }
        assertChallenged(McpHttp.withoutToken("POST", "/mcp/servers/a%22b", init), "a name no server can have", "/mcp");
    }

    /** RFC 9728, as the MCP authorization specification asks; the IT server runs the built-in issuer. */
    @Test
    void theProtectedResourceMetadataIsPublicAndNamesEachEndpoint() throws Exception {
        for (String path : new String[] {"", "/mcp", "/mcp/servers/anything"}) {
            HttpResponse<String> response = McpHttp.HTTP.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(Api.BASE + "/.well-known/oauth-protected-resource" + path)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), path + ": " + response.body());
            JsonObject document;
            try (var reader = jakarta.json.Json.createReader(new java.io.StringReader(response.body()))) {
                document = reader.readObject();
            }
            assertEquals(Api.BASE + (path.isEmpty() ? "/mcp" : path), document.getString("resource"), document::toString);
            assertEquals("[\"header\"]", document.getJsonArray("bearer_methods_supported").toString());
            assertTrue(!document.containsKey("authorization_servers"), () -> "the built-in issuer is no authorization server: " + document);
        }
        HttpResponse<String> other = McpHttp.HTTP.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(Api.BASE + "/.well-known/oauth-protected-resource/api/users")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, other.statusCode(), "only the MCP endpoints are described");
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
