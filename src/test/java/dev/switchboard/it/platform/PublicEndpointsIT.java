package dev.switchboard.it.platform;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What answers without a token (health, OpenAPI, JWKS, metrics), and that bad input cannot break the server. */
class PublicEndpointsIT {

    @Test
    void healthAnswersWithoutAToken() {
        for (String path : new String[] {"/health", "/health/ready", "/health/live"}) {
            JsonObject health = Api.get(path, null).expect(200).json();
            assertEquals("UP", health.getString("status"), path);
        }
        assertTrue(Api.get("/health/ready", null).text().contains("database"));
    }

    @Test
    void openApiAnswersWithoutAToken() {
        String openapi = Api.get("/openapi", null).expect(200).text();
        assertTrue(openapi.contains("/api/auth/token"), openapi.substring(0, Math.min(400, openapi.length())));
        assertTrue(openapi.contains("bearer"));
    }

    @Test
    void metricsAnswerWithoutAToken() {
        assertFalse(Api.get("/metrics", null).expect(200).text().isBlank());
    }

    @Test
    void jwksPublishesOneRsaSigningKey() {
        Api.Reply reply = Api.get("/api/auth/jwks", null).expect(200);
        assertTrue(reply.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonObject jwks = reply.json();
        assertEquals(1, jwks.getJsonArray("keys").size());
        JsonObject key = jwks.getJsonArray("keys").getJsonObject(0);
        assertEquals("RSA", key.getString("kty"));
        assertEquals("sig", key.getString("use"));
        assertEquals("RS256", key.getString("alg"));
        assertTrue(new BigInteger(1, Base64.getUrlDecoder().decode(key.getString("n"))).bitLength() >= 2048);
        assertEquals("AQAB", key.getString("e"));
        assertFalse(key.containsKey("d") || key.containsKey("p") || key.containsKey("q"), "no private parts: " + key);
        // the key id a token names is the one published
        String header = new String(Base64.getUrlDecoder().decode(Api.adminToken().split("\\.")[0]));
        assertTrue(header.contains("\"kid\":\"" + key.getString("kid") + "\""), header);
    }

    @Test
    void aBadTokenDoesNotCloseThePublicEndpoints() {
        Api.get("/health", "garbage").expect(200);
        Api.get("/api/auth/jwks", "garbage").expect(200);
    }

    @Test
    void deeplyNestedJsonIsABadRequest() {
        for (String path : new String[] {"/api/auth/token", "/api/users", "/api/api-keys", "/api/mcp-servers", "/api/assistants"}) {
            Api.Reply deep = Api.post(path, Api.adminToken(), "[".repeat(100_000) + "]".repeat(100_000));
            assertEquals(400, deep.status(), path + ": " + deep.text());
            assertEquals("invalid_json", deep.errorCode());
        }
        Api.get("/health/live", null).expect(200);
    }

    @Test
    void oversizedBodyIsRefusedBeforeItIsReadAndTheServerStaysUp() {
        String huge = "x".repeat(2 * 1024 * 1024);
        for (String path : new String[] {"/api/auth/token", "/api/users", "/api/api-keys", "/api/mcp-servers"}) {
            Api.Reply reply = Api.post(path, Api.adminToken(), Json.createObjectBuilder().add("name", huge).build());
            assertEquals(413, reply.status(), path);
            assertEquals("request_too_large", reply.errorCode());
        }
        Api.Reply login = Api.post("/api/auth/token", null, Json.createObjectBuilder()
                .add("username", "x".repeat(100_000)).add("password", "y").build());
        assertEquals("invalid_credentials", login.expect(401).errorCode(), "under the limit: validated as usual");
        Api.get("/health/live", null).expect(200);
        Api.get("/api/auth/me", Api.adminToken()).expect(200);
    }
}
