package dev.switchboard.it.security;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ServerDatabase;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/users}: only admins manage users; validation; the last admin stays; deletion ends API keys. */
class UserAdminIT {

    static String admin;
    @RegisterExtension
    static final NewUser user = new NewUser();

    @BeforeAll
    static void tokens() {
        admin = Api.adminToken();
    }

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static JsonObject newUser(String name, String password, String role) {
        var body = Json.createObjectBuilder().add("username", name).add("password", password);
        if (role != null) {
            body.add("role", role);
        }
        return body.build();
    }

    static boolean userExists(String name) {
        return Api.get("/api/users", admin).expect(200).text().contains("\"" + name + "\"");
    }

    @Test
    void aUserCannotListCreateOrDeleteUsers() {
        Api.Reply list = Api.get("/api/users", user.token()).expect(403);
        assertEquals("forbidden", list.errorCode());
        assertEquals("permission_error", list.json().getJsonObject("error").getString("type"));
        String name = unique("sneaky");
        assertEquals("forbidden", Api.post("/api/users", user.token(), newUser(name, "password-123", "admin")).expect(403).errorCode());
        assertFalse(userExists(name), "nothing was created");
        assertEquals("forbidden", Api.delete("/api/users/admin", user.token()).expect(403).errorCode());
        Api.get("/api/auth/me", admin).expect(200);
    }

    @Test
    void adminCreatesListsAndDeletesUsers() {
        String name = unique("Carol");
        Api.Reply created = Api.post("/api/users", admin, newUser(name, "carol-password", null)).expect(201);
        JsonObject carol = created.json();
        assertEquals(name.toLowerCase(), carol.getString("username"), "stored lower case");
        assertEquals("user", carol.getString("role"), "role defaults to user");
        assertEquals("default", carol.getString("tenant"));
        assertFalse(carol.getBoolean("disabled"));
        assertTrue(created.headers().firstValue("Location").orElse("").endsWith("/api/users/" + name.toLowerCase()),
                created.headers().map().toString());
        assertFalse(created.text().contains("carol-password"));
        assertFalse(created.text().toLowerCase().contains("hash"));

        String list = Api.get("/api/users", admin).expect(200).text();
        assertTrue(list.contains("\"" + name.toLowerCase() + "\""), list);
        assertFalse(list.contains("pbkdf2") || list.contains("passwordHash") || list.contains("password"), "no hashes listed");

        String token = Api.login(name, "carol-password");
        Api.get("/api/auth/me", token).expect(200);

        Api.delete("/api/users/" + name, admin).expect(204);
        assertFalse(userExists(name.toLowerCase()));
        assertEquals("invalid_credentials", Api.post("/api/auth/token", null,
                Json.createObjectBuilder().add("username", name).add("password", "carol-password").build()).expect(401).errorCode());
        assertEquals("user_not_found", Api.delete("/api/users/" + name, admin).expect(404).errorCode());
    }

    @Test
    void adminCreatesAnAdminInAnotherTenant() {
        String name = unique("boss");
        JsonObject boss = Api.post("/api/users", admin, Json.createObjectBuilder().add("username", name)
                .add("password", "boss-password").add("role", "admin").add("tenant", "acme").build()).expect(201).json();
        assertEquals("admin", boss.getString("role"));
        assertEquals("acme", boss.getString("tenant"));
        JsonObject me = Api.get("/api/auth/me", Api.login(name, "boss-password")).expect(200).json();
        assertEquals("acme", me.getString("tenant"));
        assertEquals(2, me.getJsonArray("roles").size());

        // an admin of another tenant manages only that tenant's users
        String acmeAdmin = Api.login(name, "boss-password");
        String member = unique("member");
        JsonObject created = Api.post("/api/users", acmeAdmin, Json.createObjectBuilder().add("username", member)
                .add("password", "member-password").build()).expect(201).json();
        assertEquals("acme", created.getString("tenant"), "defaults to the admin's own tenant");
        assertEquals("tenant_forbidden", Api.post("/api/users", acmeAdmin, Json.createObjectBuilder().add("username", unique("x"))
                .add("password", "member-password").add("tenant", "default").build()).expect(403).errorCode());
        String listed = Api.get("/api/users", acmeAdmin).expect(200).text();
        assertTrue(listed.contains(member) && !listed.contains("\"username\":\"admin\"") && !listed.contains("\"tenant\":\"default\""), listed);
        assertEquals("user_not_found", Api.delete("/api/users/admin", acmeAdmin).expect(404).errorCode());
        Api.delete("/api/users/" + member, acmeAdmin).expect(204);
        Api.delete("/api/users/" + name, admin).expect(204);
    }

    @Test
    void creationIsValidated() {
        assertEquals("invalid_password", Api.post("/api/users", admin, newUser(unique("v"), "short", "user")).expect(400).errorCode());
        assertEquals("invalid_password", Api.post("/api/users", admin, newUser(unique("v"), "x".repeat(1025), "user")).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/users", admin, Json.createObjectBuilder()
                .add("username", unique("v")).add("password", 12345678).build()).expect(400).errorCode());
        assertEquals("missing_field", Api.post("/api/users", admin, Json.createObjectBuilder()
                .add("username", unique("v")).build()).expect(400).errorCode());
        assertEquals("unknown_field", Api.post("/api/users", admin, Json.createObjectBuilder(
                newUser(unique("v"), "long-enough", "user")).add("email", "v@example.com").build()).expect(400).errorCode());
        assertEquals("invalid_role", Api.post("/api/users", admin, newUser(unique("v"), "long-enough", "root")).expect(400).errorCode());
        assertEquals("invalid_role", Api.post("/api/users", admin, newUser(unique("v"), "long-enough", "ADMIN")).expect(400).errorCode());
        assertEquals("invalid_username", Api.post("/api/users", admin, newUser("", "long-enough", "user")).expect(400).errorCode());
        assertEquals("invalid_username", Api.post("/api/users", admin, newUser("has space", "long-enough", "user")).expect(400).errorCode());
        assertEquals("invalid_username", Api.post("/api/users", admin, newUser("x".repeat(65), "long-enough", "user")).expect(400).errorCode());
        assertEquals("invalid_username", Api.post("/api/users", admin, newUser("../admin", "long-enough", "user")).expect(400).errorCode());
        assertEquals("invalid_tenant", Api.post("/api/users", admin, Json.createObjectBuilder().add("username", unique("v"))
                .add("password", "long-enough").add("tenant", "no/slashes").build()).expect(400).errorCode());
        assertEquals("invalid_json", Api.post("/api/users", admin, "{\"username\":").expect(400).errorCode());
        assertEquals("invalid_json", Api.post("/api/users", admin, "[{\"username\":\"v-array\",\"password\":\"long-enough\"}]").expect(400).errorCode());
        Api.post("/api/users", admin, "\"v-string\"").expect(400);
        String list = Api.get("/api/users", admin).expect(200).text();
        assertFalse(list.contains("\"v-"), "nothing invalid was stored: " + list);
    }

    @Test
    void duplicateUsernameIs409EvenInAnotherCase() {
        String name = unique("dup");
        Api.post("/api/users", admin, newUser(name, "first-password", "user")).expect(201);
        Api.Reply again = Api.post("/api/users", admin, newUser(name, "second-password", "admin")).expect(409);
        assertEquals("user_exists", again.errorCode());
        assertEquals("user_exists", Api.post("/api/users", admin, newUser(name.toUpperCase(), "second-password", "admin")).expect(409).errorCode());
        assertEquals("user_exists", Api.post("/api/users", admin, newUser("ADMIN", "second-password", "admin")).expect(409).errorCode());
        // the first one is untouched
        Api.login(name, "first-password");
        assertEquals(401, Api.post("/api/auth/token", null, Json.createObjectBuilder().add("username", name)
                .add("password", "second-password").build()).status());
    }

    @Test
    void theLastAdminCannotBeDeleted() {
        // leave "admin" as the only admin: remove admins that earlier tests or runs left behind
        var users = Json.createReader(new java.io.StringReader(Api.get("/api/users", admin).expect(200).text())).readArray();
        for (JsonValue value : users) {
            JsonObject u = value.asJsonObject();
            if (u.getString("role").equals("admin") && !u.getString("username").equals("admin")) {
                Api.delete("/api/users/" + u.getString("username"), admin).expect(204);
            }
        }
        Api.Reply refused = Api.delete("/api/users/admin", admin).expect(409);
        assertEquals("last_admin", refused.errorCode());
        Api.get("/api/auth/me", Api.adminToken()).expect(200);

        // with a second admin, either may go, but then again not the last one
        String second = unique("second-admin");
        Api.post("/api/users", admin, newUser(second, "second-password", "admin")).expect(201);
        Api.delete("/api/users/" + second, admin).expect(204);
        assertEquals("last_admin", Api.delete("/api/users/admin", admin).expect(409).errorCode());
        Api.get("/api/auth/me", Api.adminToken()).expect(200);
    }

    @Test
    void aDeletedUsersApiKeysStopWorking() {
        String name = unique("leaver");
        Api.post("/api/users", admin, newUser(name, "leaver-password", "user")).expect(201);
        String token = Api.login(name, "leaver-password");
        String key = Api.post("/api/api-keys", token, Json.createObjectBuilder().add("name", "laptop").build())
                .expect(201).json().getString("key");
        Api.get("/api/mcp-servers", key).expect(200);
        Api.delete("/api/users/" + name, admin).expect(204);
        assertEquals("api_key_revoked", Api.get("/api/mcp-servers", key).expect(401).errorCode());
        assertEquals("api_key_revoked", Api.get("/api/auth/me", key).expect(401).errorCode());
    }

    @Test
    void aDeletedUsersRemainingAccessTokenCannotCreateAnApiKey() {
        // an access token stays valid until it expires; it must not buy a year-long API key after the user is gone
        String name = unique("gone");
        Api.post("/api/users", admin, newUser(name, "gone-password", "user")).expect(201);
        String token = Api.login(name, "gone-password");
        Api.delete("/api/users/" + name, admin).expect(204);
        Api.Reply refused = Api.post("/api/api-keys", token, Json.createObjectBuilder().add("name", "backdoor").build());
        assertEquals(401, refused.status(), refused.text());
        assertEquals("user_not_active", refused.errorCode());
        assertEquals("", ServerDatabase.dump("api_key").lines().filter(line -> line.contains("|backdoor|")
                && line.contains(name.toLowerCase())).findAny().orElse(""), "no key was stored");
    }
}
