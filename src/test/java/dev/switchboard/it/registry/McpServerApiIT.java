package dev.switchboard.it.registry;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ServerDatabase;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/mcp-servers}: CRUD, the seed's type rules, validation, ownership, secret masking. */
class McpServerApiIT {

    static String admin;
    @RegisterExtension
    static final NewUser alice = new NewUser();
    @RegisterExtension
    static final NewUser bob = new NewUser();

    @BeforeAll
    static void tokens() {
        admin = Api.adminToken();
    }

    static JsonObject http(String name, String url) {
        return Json.createObjectBuilder().add("name", name).add("baseUrl", url).build();
    }

    @Test
    void typeIsInferredFromUrlOrCommandWhenNotGiven() {
        JsonObject mcp = Api.post("/api/mcp-servers", alice.token(), http(Names.unique("s1"), "http://127.0.0.1:9/mcp")).expect(201).json();
        assertEquals("streamableHttp", mcp.getString("type"));
        JsonObject sse = Api.post("/api/mcp-servers", alice.token(), http(Names.unique("s2"), "https://example.com/events")).expect(201).json();
        assertEquals("sse", sse.getString("type"));
        JsonObject stdio = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", Names.unique("s3"))
                .add("command", "node").add("args", Json.createArrayBuilder().add("server.js")).build()).expect(201).json();
        assertEquals("stdio", stdio.getString("type"));
        assertEquals(List.of("server.js"), stdio.getJsonArray("args").getValuesAs(jakarta.json.JsonString.class)
                .stream().map(jakarta.json.JsonString::getString).toList());
        assertEquals("disconnected", stdio.getString("status"));
        assertTrue(stdio.getBoolean("isActive"));
        assertEquals(60, stdio.getInt("timeout"));
    }

    @Test
    void createGetUpdateDelete() {
        JsonObject created = Api.post("/api/mcp-servers", alice.token(), http(Names.unique("crud"), "http://127.0.0.1:9/mcp")).expect(201).json();
        long id = created.getJsonNumber("id").longValue();
        assertEquals(created.getString("name"), Api.get("/api/mcp-servers/" + id, alice.token()).expect(200).json().getString("name"));
        JsonObject updated = Api.put("/api/mcp-servers/" + id, alice.token(), Json.createObjectBuilder().add("timeout", 120)
                .add("disabledTools", Json.createArrayBuilder().add("printEnv")).add("isActive", false).build()).expect(200).json();
        assertEquals(120, updated.getInt("timeout"));
        assertFalse(updated.getBoolean("isActive"));
        assertEquals("printEnv", updated.getJsonArray("disabledTools").getString(0));
        assertEquals(created.getString("baseUrl"), updated.getString("baseUrl"), "fields left out stay");
        boolean listed = Api.get("/api/mcp-servers", alice.token()).expect(200).json().getJsonArray("data").stream()
                .anyMatch(v -> v.asJsonObject().getJsonNumber("id").longValue() == id);
        assertTrue(listed);
        Api.delete("/api/mcp-servers/" + id, alice.token()).expect(204);
        Api.get("/api/mcp-servers/" + id, alice.token()).expect(404);
        Api.delete("/api/mcp-servers/" + id, alice.token()).expect(404);
    }

    @Test
    void secretsAreMaskedAndKeptWhenEchoedBack() {
        JsonObject created = Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", Names.unique("sec"))
                .add("baseUrl", "http://127.0.0.1:9/mcp")
                .add("headers", Json.createObjectBuilder().add("Authorization", "Bearer sk-very-secret-value-123")).build())
                .expect(201).json();
        String masked = created.getJsonObject("headers").getString("Authorization");
        assertFalse(masked.contains("very-secret"), masked);
        long id = created.getJsonNumber("id").longValue();
        // a client that PUTs back what it got must not overwrite the secret with the mask
        Api.put("/api/mcp-servers/" + id, alice.token(), Json.createObjectBuilder().add("headers", created.getJsonObject("headers")).build()).expect(200);
        String list = Api.get("/api/mcp-servers", alice.token()).expect(200).text();
        assertFalse(list.contains("sk-very-secret-value-123"), "never echoed in a list");
        assertEquals(masked, Api.get("/api/mcp-servers/" + id, alice.token()).json().getJsonObject("headers").getString("Authorization"));
        String stored = ServerDatabase.queryString("select headers from mcp_servers where id = " + id);
        assertTrue(stored.contains("\"Authorization\":\"enc:v2:1:"), "encrypted at rest under key v1, bound to its row: " + stored);
        assertFalse(stored.contains("very-secret"), "no plain secret in the database");
    }

    @Test
    void othersServersAreNotFoundAndUntouched() {
        JsonObject mine = Api.post("/api/mcp-servers", alice.token(), http(Names.unique("private"), "http://127.0.0.1:9/mcp")).expect(201).json();
        long id = mine.getJsonNumber("id").longValue();
        assertEquals("not_found", Api.get("/api/mcp-servers/" + id, bob.token()).expect(404).errorCode());
        Api.put("/api/mcp-servers/" + id, bob.token(), Json.createObjectBuilder().add("timeout", 5).build()).expect(404);
        Api.delete("/api/mcp-servers/" + id, bob.token()).expect(404);
        Api.post("/api/mcp-servers/" + id + "/connect", bob.token(), "").expect(404);
        Api.get("/api/mcp-servers/" + id + "/tools", bob.token()).expect(404);
        String bobsList = Api.get("/api/mcp-servers", bob.token()).expect(200).text();
        assertFalse(bobsList.contains(mine.getString("name")));
        assertEquals(60, Api.get("/api/mcp-servers/" + id, alice.token()).expect(200).json().getInt("timeout"), "unchanged");
    }

    @Test
    void onlyAdminsRegisterStdioOrSharedServers() {
        var stdio = Json.createObjectBuilder().add("name", Names.unique("stdio")).add("command", "sh")
                .add("args", Json.createArrayBuilder().add("-c").add("echo pwned")).build();
        assertEquals("stdio_requires_admin", Api.post("/api/mcp-servers", alice.token(), stdio).expect(403).errorCode());
        var typed = Json.createObjectBuilder().add("name", Names.unique("stdio")).add("type", "stdio").add("command", "sh").build();
        assertEquals("stdio_requires_admin", Api.post("/api/mcp-servers", alice.token(), typed).expect(403).errorCode());
        JsonObject own = Api.post("/api/mcp-servers", alice.token(), http(Names.unique("switch"), "http://127.0.0.1:9/mcp")).expect(201).json();
        Api.put("/api/mcp-servers/" + own.getJsonNumber("id") , alice.token(), Json.createObjectBuilder().add("type", "stdio")
                .add("command", "sh").build()).expect(403);
        var shared = Json.createObjectBuilder().add("name", Names.unique("shared")).add("baseUrl", "http://127.0.0.1:9/mcp").add("scope", "shared").build();
        assertEquals("shared_requires_admin", Api.post("/api/mcp-servers", alice.token(), shared).expect(403).errorCode());
        boolean anyStdio = Api.get("/api/mcp-servers", alice.token()).json().getJsonArray("data").stream()
                .anyMatch(v -> v.asJsonObject().getString("type").equals("stdio"));
        assertFalse(anyStdio, "nothing was stored by the refused requests");
    }

    @Test
    void sharedServersAreVisibleToTheTenantButOnlyAdminsChangeThem() {
        JsonObject shared = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", Names.unique("team"))
                .add("baseUrl", "http://127.0.0.1:9/mcp").add("scope", "shared").build()).expect(201).json();
        long id = shared.getJsonNumber("id").longValue();
        assertEquals("shared", Api.get("/api/mcp-servers/" + id, bob.token()).expect(200).json().getString("scope"));
        assertEquals("not_owner", Api.put("/api/mcp-servers/" + id, bob.token(), Json.createObjectBuilder().add("timeout", 5).build()).expect(403).errorCode());
        String otherTenant = Api.newUser("acme");
        Api.get("/api/mcp-servers/" + id, otherTenant).expect(404);
    }

    @Test
    void badInputGetsAClearErrorAndStoresNothing() {
        String before = Api.get("/api/mcp-servers", alice.token()).expect(200).text();
        assertEquals("invalid_json", Api.post("/api/mcp-servers", alice.token(), "{\"name\": ").expect(400).errorCode());
        assertEquals("invalid_json", Api.post("/api/mcp-servers", alice.token(), "[{\"name\": \"x\"}]").expect(400).errorCode());
        assertEquals("invalid_json", Api.post("/api/mcp-servers", alice.token(), "42").expect(400).errorCode());
        assertEquals("missing_field", Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("baseUrl", "http://x/mcp").build()).expect(400).errorCode());
        assertEquals("missing_field", Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", "x").build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", 5).add("baseUrl", "http://x/mcp").build()).expect(400).errorCode());
        assertEquals("invalid_url", Api.post("/api/mcp-servers", alice.token(), http("x", "ftp://x/mcp")).expect(400).errorCode());
        assertEquals("invalid_url", Api.post("/api/mcp-servers", alice.token(), http("x", "file:///etc/passwd")).expect(400).errorCode());
        assertEquals("invalid_url", Api.post("/api/mcp-servers", alice.token(), http("x", "http://user:pw@host/mcp")).expect(400).errorCode());
        assertEquals("unknown_field", Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", "x").add("baseUrl", "http://x/mcp").add("colour", "red").build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", Names.unique("x")).add("command", "node").add("args", "server.js").build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", Names.unique("x")).add("command", "node").add("args", Json.createArrayBuilder().add(1)).build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", Names.unique("x")).add("command", "node").add("env", Json.createObjectBuilder().add("A", 1)).build()).expect(400).errorCode());
        assertEquals("invalid_timeout", Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", "x").add("baseUrl", "http://x/mcp").add("timeout", 0).build()).expect(400).errorCode());
        assertEquals("invalid_timeout", Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", "x").add("baseUrl", "http://x/mcp").add("timeout", 100000).build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", "x").add("baseUrl", "http://x/mcp").add("timeout", "10").build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", "x").add("baseUrl", "http://x/mcp").add("type", "websocket").build()).expect(400).errorCode());
        assertEquals("invalid_header", Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", "x").add("baseUrl", "http://x/mcp")
                .add("headers", Json.createObjectBuilder().add("Host", "evil")).build()).expect(400).errorCode());
        assertEquals("invalid_field", Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", Names.unique("x")).add("baseUrl", "http://x/mcp").add("command", "node").add("type", "sse").build()).expect(400).errorCode());
        String name = Names.unique("dup");
        Api.post("/api/mcp-servers", alice.token(), http(name, "http://x/mcp")).expect(201);
        assertEquals("duplicate_name", Api.post("/api/mcp-servers", alice.token(), http(name, "http://y/mcp")).expect(409).errorCode());
        String after = Api.get("/api/mcp-servers", alice.token()).expect(200).text();
        assertEquals(Json.createReader(new java.io.StringReader(before)).readObject().getJsonArray("data").size() + 1,
                Json.createReader(new java.io.StringReader(after)).readObject().getJsonArray("data").size(), "only the one valid server was added");
        Api.get("/api/mcp-servers/not-a-number", alice.token()).expect(404);
    }

    @Test
    void noOrBadTokenIsRefused() {
        assertEquals(401, Api.get("/api/mcp-servers", null).status());
        assertEquals(401, Api.get("/api/mcp-servers", "not-a-jwt").status());
        assertEquals(401, Api.get("/api/mcp-servers", alice.token().substring(0, alice.token().length() - 4) + "AAAA").status(), "bad signature");
        assertEquals(401, Api.post("/api/mcp-servers", null, http("x", "http://x/mcp")).status());
    }

    /**
     * A value as an installation of before stored it (enc:v1 under the data dir's key, bound to no row) is read, and
     * the background pass re-encrypts it under the current key bound to its row (the IT server runs the pass every
     * 2 s: switchboard.secret.reencrypt-interval in the pom).
     */
    @Test
    void aSecretOfBeforeIsReadAndReencryptedInTheBackground() throws Exception {
        JsonObject created = Api.post("/api/mcp-servers", alice.token(), Json.createObjectBuilder().add("name", Names.unique("older"))
                .add("baseUrl", "http://127.0.0.1:9/mcp")
                .add("headers", Json.createObjectBuilder().add("Authorization", "Bearer placeholder-value")).build())
                .expect(201).json();
        long id = created.getJsonNumber("id").longValue();
        byte[] key = java.util.Base64.getDecoder().decode(java.nio.file.Files.readString(
                java.nio.file.Path.of(System.getProperty("it.data.dir"), "secret.key")).trim());
        byte[] iv = new byte[12];
        new java.security.SecureRandom().nextBytes(iv);
        javax.crypto.Cipher aes = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
        aes.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(key, "AES"),
                new javax.crypto.spec.GCMParameterSpec(128, iv));
        byte[] sealed = aes.doFinal("Bearer sk-from-before-42".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        String legacy = "enc:v1:" + java.util.Base64.getEncoder().encodeToString(
                java.nio.ByteBuffer.allocate(12 + sealed.length).put(iv).put(sealed).array());
        assertEquals(1, ServerDatabase.update("update mcp_servers set headers = '{\"Authorization\":\"" + legacy
                + "\"}' where id = " + id));

        java.time.Instant deadline = java.time.Instant.now().plusSeconds(30);
        String stored = legacy;
        while (stored.contains("enc:v1:") && java.time.Instant.now().isBefore(deadline)) {
            Thread.sleep(500);
            stored = ServerDatabase.queryString("select headers from mcp_servers where id = " + id);
        }
        assertTrue(stored.contains("\"Authorization\":\"enc:v2:1:"), "re-encrypted in the background: " + stored);
        assertFalse(stored.contains("sk-from-before"));
        assertEquals("••••••42", Api.get("/api/mcp-servers/" + id, alice.token()).expect(200).json().getJsonObject("headers")
                .getString("Authorization"), "the value of before, masked");
    }
}
