package dev.switchboard.it.security;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ServerDatabase;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/api-keys}: create (shown once), use as bearer, list (own only, never the key), revoke, hash-only storage. */
class ApiKeyIT {

    @RegisterExtension
    static final NewUser alice = new NewUser();
    @RegisterExtension
    static final NewUser bob = new NewUser();

    static JsonObject named(String name) {
        return Json.createObjectBuilder().add("name", name).build();
    }

    static JsonArray list(String token) {
        try (var reader = Json.createReader(new StringReader(Api.get("/api/api-keys", token).expect(200).text()))) {
            return reader.readArray();
        }
    }

    static JsonObject created(String token, String name) {
        return Api.post("/api/api-keys", token, named(name)).expect(201).json();
    }

    static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void createShowsTheKeyOnceAndItWorksAsBearer() {
        Api.Reply reply = Api.post("/api/api-keys", alice.token(), named("ci pipeline")).expect(201);
        JsonObject key = reply.json();
        long id = key.getJsonNumber("id").longValue();
        String secret = key.getString("key");
        assertEquals("ci pipeline", key.getString("name"));
        assertFalse(key.getBoolean("revoked"));
        assertTrue(secret.endsWith(key.getString("prefix").replace("…", "")), "prefix identifies the key: " + key);
        assertTrue(key.getString("prefix").length() < 16, "prefix is a hint, not the key");
        assertTrue(Instant.parse(key.getString("expiresAt")).isAfter(Instant.now().plusSeconds(300 * 86400L)), "long-lived");
        assertTrue(reply.headers().firstValue("Location").orElse("").endsWith("/api/api-keys/" + id));

        Api.get("/api/mcp-servers", secret).expect(200);
        JsonObject me = Api.get("/api/auth/me", secret).expect(200).json();
        assertEquals("api_key", me.getString("tokenUse"));
        assertEquals(Api.get("/api/auth/me", alice.token()).json().getString("subject"), me.getString("subject"));
        assertEquals("default", me.getString("tenant"));

        JsonArray keys = list(alice.token());
        JsonObject listed = keys.stream().map(JsonValue::asJsonObject)
                .filter(k -> k.getJsonNumber("id").longValue() == id).findFirst().orElseThrow();
        assertFalse(listed.containsKey("key"), "the key is shown only at creation: " + listed);
        assertEquals(key.getString("prefix"), listed.getString("prefix"));
        assertFalse(Api.get("/api/api-keys", alice.token()).text().contains(secret));
        assertTrue(listed.containsKey("lastUsedAt"), "use is recorded: " + listed);
    }

    @Test
    void anApiKeyCannotCreateApiKeys() {
        String key = created(alice.token(), "automation").getString("key");
        int before = list(alice.token()).size();
        Api.Reply refused = Api.post("/api/api-keys", key, named("child")).expect(403);
        assertEquals("api_key_cannot_create_keys", refused.errorCode());
        assertEquals("permission_error", refused.json().getJsonObject("error").getString("type"));
        assertEquals(before, list(alice.token()).size());
    }

    @Test
    void revokedKeyIsRefusedRightAway() {
        JsonObject key = created(alice.token(), "to revoke");
        String secret = key.getString("key");
        Api.get("/api/mcp-servers", secret).expect(200);
        Api.delete("/api/api-keys/" + key.getJsonNumber("id"), alice.token()).expect(204);
        Api.Reply refused = Api.get("/api/mcp-servers", secret).expect(401);
        assertEquals("api_key_revoked", refused.errorCode());
        assertTrue(refused.headers().firstValue("WWW-Authenticate").orElse("").contains("invalid_token"));
        assertEquals("api_key_revoked", Api.get("/api/auth/me", secret).expect(401).errorCode());
        JsonObject listed = list(alice.token()).stream().map(JsonValue::asJsonObject)
                .filter(k -> k.getJsonNumber("id").longValue() == key.getJsonNumber("id").longValue()).findFirst().orElseThrow();
        assertTrue(listed.getBoolean("revoked"));
        assertTrue(listed.containsKey("revokedAt"));
        // revoking twice is harmless; other keys keep working
        Api.delete("/api/api-keys/" + key.getJsonNumber("id"), alice.token()).expect(204);
        Api.get("/api/mcp-servers", alice.token()).expect(200);
    }

    @Test
    void someoneElsesKeyIsNotFoundAndStaysUsable() {
        JsonObject alicesKey = created(alice.token(), "alice only");
        long id = alicesKey.getJsonNumber("id").longValue();
        assertEquals("api_key_not_found", Api.delete("/api/api-keys/" + id, bob.token()).expect(404).errorCode());
        assertEquals("api_key_not_found", Api.delete("/api/api-keys/" + id, Api.adminToken()).expect(404).errorCode(),
                "not even an admin revokes someone else's key through this endpoint");
        assertEquals("api_key_not_found", Api.delete("/api/api-keys/999999999", alice.token()).expect(404).errorCode());
        Api.get("/api/mcp-servers", alicesKey.getString("key")).expect(200);
        Api.delete("/api/api-keys/not-a-number", alice.token()).expect(404);
    }

    @Test
    void aUserSeesOnlyOwnKeys() {
        String name = "bobs-" + UUID.randomUUID();
        created(bob.token(), name);
        assertFalse(Api.get("/api/api-keys", alice.token()).expect(200).text().contains(name));
        assertTrue(Api.get("/api/api-keys", bob.token()).expect(200).text().contains(name));
        String carol = Api.newUser("default");
        assertEquals(0, list(carol).size());
    }

    @Test
    void nameIsValidated() {
        assertEquals("missing_field", Api.post("/api/api-keys", alice.token(), "{}").expect(400).errorCode());
        assertEquals("invalid_name", Api.post("/api/api-keys", alice.token(), named("   ")).expect(400).errorCode());
        assertEquals("invalid_name", Api.post("/api/api-keys", alice.token(), named("x".repeat(101))).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/api-keys", alice.token(), Json.createObjectBuilder().add("name", 7).build()).expect(400).errorCode());
        assertEquals("unknown_field", Api.post("/api/api-keys", alice.token(), Json.createObjectBuilder().add("name", "k")
                .add("expiresInDays", 7).build()).expect(400).errorCode());
        assertEquals(0, list(alice.token()).stream().filter(key -> key.asJsonObject().getString("name").equals("k")).count(),
                "a refused body creates no key");
        assertEquals("invalid_json", Api.post("/api/api-keys", alice.token(), "{\"name\":").expect(400).errorCode());
        assertEquals("invalid_json", Api.post("/api/api-keys", alice.token(), "[{\"name\":\"in an array\"}]").expect(400).errorCode());
        Api.post("/api/api-keys", alice.token(), "\"just a name\"").expect(400);
    }

    @Test
    void theDatabaseHoldsOnlyTheHash() throws Exception {
        JsonObject key = created(alice.token(), "hash check");
        String secret = key.getString("key");
        String[] parts = secret.split("\\.");
        String table = ServerDatabase.dump("api_key");
        assertFalse(table.contains(secret), "the raw key is not stored");
        assertFalse(table.contains(parts[1]), "nor its claims part");
        assertFalse(table.contains(parts[2]), "nor its signature");
        String stored = ServerDatabase.queryString("select key_hash from api_key where id = " + key.getJsonNumber("id"));
        assertEquals(sha256(secret), stored);
        assertNotEquals(secret, stored);
    }

    @Test
    void noKeyOrANonKeyIsRefusedByTheKeysEndpoint() {
        Api.get("/api/api-keys", null).expect(401);
        Api.post("/api/api-keys", null, named("anonymous")).expect(401);
    }
}
