package dev.switchboard.it.security;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.ServerDatabase;
import dev.switchboard.it.support.Tokens;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /api/auth/token} and {@code /api/auth/me}: login with a local user, and which bearer tokens the server
 * accepts (its own, unexpired, for its issuer and audience) and which it refuses.
 */
class AuthIT {

    static String username;
    static String password;

    @BeforeAll
    static void aUser() {
        username = "auth-" + UUID.randomUUID().toString().substring(0, 8);
        password = "pw-" + UUID.randomUUID();
        Api.post("/api/users", Api.adminToken(), Json.createObjectBuilder().add("username", username)
                .add("password", password).add("role", "user").add("tenant", "acme").build()).expect(201);
    }

    static JsonObject credentials(String user, String pw) {
        return Json.createObjectBuilder().add("username", user).add("password", pw).build();
    }

    static List<String> strings(JsonObject object, String name) {
        return object.getJsonArray(name).getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    // ---- login ----

    @Test
    void rightPasswordGivesATokenThatWorks() {
        Api.Reply reply = Api.post("/api/auth/token", null, credentials(username, password)).expect(200);
        JsonObject body = reply.json();
        assertEquals("Bearer", body.getString("token_type"));
        assertEquals(8 * 3600, body.getInt("expires_in"));
        String token = body.getString("access_token");
        assertTrue(token.matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"), token);
        assertTrue(reply.headers().firstValue("Cache-Control").orElse("").contains("no-store"),
                "a token response must not be cached: " + reply.headers().map());

        JsonObject me = Api.get("/api/auth/me", token).expect(200).json();
        assertEquals(username, me.getString("subject"));
        assertEquals("acme", me.getString("tenant"));
        assertEquals(List.of("user"), strings(me, "roles"));
        assertEquals("access", me.getString("tokenUse"));
    }

    @Test
    void adminTokenCarriesBothRolesInTheDefaultTenant() {
        JsonObject me = Api.get("/api/auth/me", Api.adminToken()).expect(200).json();
        assertEquals("admin", me.getString("subject"));
        assertEquals("default", me.getString("tenant"));
        assertEquals(List.of("admin", "user"), strings(me, "roles"));
    }

    @Test
    void usernameIsCaseInsensitive() {
        String token = Api.login(username.toUpperCase(), password);
        assertEquals(username, Api.get("/api/auth/me", token).expect(200).json().getString("subject"));
    }

    @Test
    void wrongPasswordAndUnknownUserGetTheSameAnswer() {
        Api.Reply wrongPassword = Api.post("/api/auth/token", null, credentials(username, password + "x")).expect(401);
        Api.Reply unknownUser = Api.post("/api/auth/token", null, credentials("nobody-" + UUID.randomUUID(), password)).expect(401);
        assertEquals("invalid_credentials", wrongPassword.errorCode());
        assertEquals("authentication_error", wrongPassword.json().getJsonObject("error").getString("type"));
        assertEquals(wrongPassword.text(), unknownUser.text(), "no hint which usernames exist");
        assertTrue(wrongPassword.headers().firstValue("WWW-Authenticate").isPresent());
        assertFalse(wrongPassword.headers().firstValue("Cache-Control").orElse("").contains("public"));
    }

    @Test
    void missingFieldsMalformedJsonAndWrongTypesAre400() {
        // the rules of every JSON body (BodyRulesIT): absent is missing_field, present with the wrong type invalid_type
        assertEquals("missing_field", Api.post("/api/auth/token", null,
                Json.createObjectBuilder().add("username", username).build()).expect(400).errorCode());
        assertEquals("missing_field", Api.post("/api/auth/token", null,
                Json.createObjectBuilder().add("password", password).build()).expect(400).errorCode());
        assertEquals("missing_field", Api.post("/api/auth/token", null, "{}").expect(400).errorCode());
        assertEquals("missing_credentials", Api.post("/api/auth/token", null, credentials("", "")).expect(400).errorCode());
        assertEquals("invalid_json", Api.post("/api/auth/token", null, "{\"username\": ").expect(400).errorCode());
        assertEquals("invalid_json", Api.post("/api/auth/token", null, "not json at all").expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/auth/token", null, Json.createObjectBuilder()
                .add("username", 42).add("password", password).build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/auth/token", null, Json.createObjectBuilder()
                .add("username", username).add("password", Json.createArrayBuilder().add(password)).build()).expect(400).errorCode());
        assertEquals("unknown_field", Api.post("/api/auth/token", null, Json.createObjectBuilder()
                .add("username", username).add("password", password).add("remember", true).build()).expect(400).errorCode());
        // valid JSON that is not an object (an array used to get a 500 from the JAX-RS runtime)
        assertEquals("invalid_json", Api.post("/api/auth/token", null, "[\"" + username + "\", \"" + password + "\"]").expect(400).errorCode());
        // top-level scalars are refused by the JAX-RS runtime's JSON reader already (code bad_request)
        for (String scalar : new String[] {"\"" + username + "\"", "42", "null", ""}) {
            Api.Reply reply = Api.post("/api/auth/token", null, scalar).expect(400);
            assertEquals("invalid_request_error", reply.json().getJsonObject("error").getString("type"), scalar);
        }
        assertEquals(415, Api.send("POST", "/api/auth/token", null, "text/plain", "username=admin").status());
    }

    @Test
    void formEncodedPasswordGrantWorks() {
        String form = "grant_type=password&username=" + username + "&password=" + java.net.URLEncoder.encode(password,
                java.nio.charset.StandardCharsets.UTF_8);
        Api.Reply reply = Api.send("POST", "/api/auth/token", null, "application/x-www-form-urlencoded", form).expect(200);
        assertTrue(reply.headers().firstValue("Cache-Control").orElse("").contains("no-store"));
        String token = reply.json().getString("access_token");
        assertEquals(username, Api.get("/api/auth/me", token).expect(200).json().getString("subject"));

        String otherGrant = "grant_type=client_credentials&username=" + username + "&password=" + password;
        assertEquals("unsupported_grant_type", Api.send("POST", "/api/auth/token", null,
                "application/x-www-form-urlencoded", otherGrant).expect(400).errorCode());
        assertEquals("invalid_credentials", Api.send("POST", "/api/auth/token", null,
                "application/x-www-form-urlencoded", "grant_type=password&username=" + username + "&password=wrong").expect(401).errorCode());
        assertEquals("missing_credentials", Api.send("POST", "/api/auth/token", null,
                "application/x-www-form-urlencoded", "grant_type=password&username=" + username).expect(400).errorCode());
    }

    // ---- tokens ----

    /**
     * A 401 in the API's error shape ({@code authentication_error}) with this code, whose message and RFC 6750 challenge
     * say the same thing; returns the message.
     */
    static String refused(String path, String token, String code) {
        Api.Reply reply = Api.get(path, token);
        assertEquals(401, reply.status(), () -> path + " -> " + reply.status() + " " + reply.text());
        JsonObject error = reply.json().getJsonObject("error");
        assertEquals(code, error.getString("code"), reply::text);
        assertEquals("authentication_error", error.getString("type"), reply::text);
        String challenge = reply.headers().firstValue("WWW-Authenticate").orElse("");
        assertTrue(challenge.startsWith("Bearer realm=\"switchboard\""), "RFC 6750 challenge: " + reply.headers().map());
        if (token != null) {
            assertTrue(challenge.contains("error=\"invalid_token\""), challenge);
            assertTrue(challenge.contains("error_description=\""), challenge);
        }
        if (token != null && token.length() > 8) {
            assertFalse(reply.text().contains(token) || challenge.contains(token), "the token is never echoed");
        }
        return error.getString("message");
    }

    @Test
    void noTokenIs401WithAChallenge() {
        assertEquals("Authentication required: send a token or an API key as 'Authorization: Bearer ...'",
                refused("/api/auth/me", null, "authentication_required"));
        refused("/api/mcp-servers", null, "authentication_required");
        refused("/api/api-keys", null, "authentication_required");
        refused("/api/users", null, "authentication_required");
    }

    @Test
    void garbageTokensAre401() {
        assertTrue(refused("/api/auth/me", "garbage", "token_malformed").startsWith("The bearer token is malformed: "));
        assertTrue(refused("/api/auth/me", "a.b.c", "token_malformed").startsWith("The bearer token is malformed: "));
        assertEquals("The bearer token is malformed: the Authorization header has no token after 'Bearer'",
                refused("/api/auth/me", "", "token_malformed"));
        assertTrue(refused("/api/auth/me", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.", "token_algorithm_refused")
                .contains("only signed tokens are accepted"));
    }

    @Test
    void unsignedTokenIs401() {
        JsonObject claims = Tokens.claims("admin", "admin", "user").build();
        String none = Tokens.b64("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes()) + "."
                + Tokens.b64(claims.toString().getBytes()) + ".";
        Api.get("/api/auth/me", none).expect(401);
    }

    @Test
    void badSignatureIs401() {
        String token = Api.login(username, password);
        int sig = token.lastIndexOf('.') + 1;
        char[] chars = token.toCharArray();
        for (int i = sig + 5; i < sig + 15; i++) {
            chars[i] = chars[i] == 'A' ? 'B' : 'A';
        }
        String flipped = new String(chars);
        assertNotEquals(token, flipped);
        assertEquals("The bearer token's signature does not verify: it was changed, or signed by another key",
                refused("/api/auth/me", flipped, "token_signature_invalid"));
        refused("/api/mcp-servers", flipped, "token_signature_invalid");
    }

    @Test
    void tamperedClaimsAre401() {
        String token = Api.login(username, password);
        String[] parts = token.split("\\.");
        String claims = Tokens.payload(token).toString().replace("\"user\"", "\"admin\"");
        String forged = parts[0] + "." + Tokens.b64(claims.getBytes()) + "." + parts[2];
        refused("/api/users", forged, "token_signature_invalid");
    }

    @Test
    void theServersOwnKeyWithCorrectClaimsIsAccepted() {
        // the control for the refusals below: the minting in this test is right, only the claim under test differs
        String token = Tokens.signedByServer(Tokens.claims(username, "user").add("tenant", "acme").build());
        JsonObject me = Api.get("/api/auth/me", token).expect(200).json();
        assertEquals(username, me.getString("subject"));
        assertEquals("acme", me.getString("tenant"));
    }

    @Test
    void expiredTokenIs401() {
        long now = Instant.now().getEpochSecond();
        // well beyond any clock skew allowance
        String expired = Tokens.signedByServer(Tokens.claims(username, "user")
                .add("iat", now - 7200).add("exp", now - 3600).build());
        String message = refused("/api/auth/me", expired, "token_expired");
        assertTrue(message.startsWith("The bearer token expired at " + Instant.ofEpochSecond(now - 3600)), message);
        refused("/api/mcp-servers", expired, "token_expired");
        assertFalse(message.contains(username));
    }

    @Test
    void wrongIssuerIs401() {
        assertTrue(refused("/api/auth/me", Tokens.signedByServer(Tokens.claims(username, "user").add("iss", "evil").build()),
                "token_wrong_issuer").startsWith("The bearer token is from another issuer: "));
    }

    @Test
    void wrongAudienceIs401() {
        assertTrue(refused("/api/auth/me", Tokens.signedByServer(Tokens.claims(username, "user").add("aud", "other-service").build()),
                "token_wrong_audience").startsWith("The bearer token is meant for another audience: "));
    }

    @Test
    void tokenSignedByAnotherKeyIs401() {
        String forged = Tokens.signedByForeignKey(Tokens.claims("admin", "admin", "user").build());
        Api.get("/api/auth/me", forged).expect(401);
        Api.get("/api/users", forged).expect(401);
    }

    @Test
    void tokenWithAnUnknownKeyIdIs401() {
        String forged = Tokens.signedByForeignKeyAndKid(Tokens.claims("admin", "admin", "user").build());
        refused("/api/auth/me", forged, "token_unknown_key");
        refused("/api/users", forged, "token_unknown_key");
        Api.get("/api/auth/me", Api.adminToken()).expect(200);
    }

    @Test
    void hs256SignedWithThePublicKeyIs401() {
        JsonObject claims = Tokens.claims("admin", "admin", "user").build();
        JsonObject jwk = Api.get("/api/auth/jwks", null).expect(200).json().getJsonArray("keys").getJsonObject(0);
        Api.get("/api/users", Tokens.hs256WithPublicKey(claims, jwk.toString().getBytes())).expect(401);
        Api.get("/api/users", Tokens.hs256WithPublicKey(claims, java.util.Base64.getUrlDecoder().decode(jwk.getString("n")))).expect(401);
    }

    @Test
    void tokenWithoutExpiryIs401() {
        refused("/api/auth/me", Tokens.signedByServer(Tokens.claims(username, "user").remove("exp").build()), "token_malformed");
    }

    @Test
    void tokenNotYetValidIs401() {
        long now = Instant.now().getEpochSecond();
        refused("/api/auth/me", Tokens.signedByServer(Tokens.claims(username, "user").add("nbf", now + 3600).build()), "token_not_yet_valid");
    }

    @Test
    void tokenWithoutTenantBelongsToTheDefaultTenant() {
        String token = Tokens.signedByServer(Tokens.claims("external-" + UUID.randomUUID(), "user").remove("tenant").build());
        JsonObject me = Api.get("/api/auth/me", token).expect(200).json();
        assertEquals("default", me.getString("tenant"));
        assertEquals("access", me.getString("tokenUse"));
    }

    @Test
    void tokenWithoutKnownRoleIsForbidden() {
        String token = Tokens.signedByServer(Tokens.claims("guest-" + UUID.randomUUID(), "guest").build());
        JsonObject error = Api.get("/api/auth/me", token).expect(403).json().getJsonObject("error");
        assertEquals("forbidden", error.getString("code"));
        assertEquals("permission_error", error.getString("type"));
        assertEquals("Insufficient role: this needs the role admin or user", error.getString("message"));
    }

    @Test
    void forgedApiKeyClaimWithoutARowIsRefused() {
        // a token_use=api_key token that the server never issued as an API key (no row) must not pass
        String token = Tokens.signedByServer(Tokens.claims(username, "user").add("token_use", "api_key").build());
        assertEquals("api_key_revoked", Api.get("/api/mcp-servers", token).expect(401).errorCode());
        assertEquals("API key revoked (or not known to this server)", Api.get("/api/mcp-servers", token).expect(401).errorMessage());
    }

    /**
     * A hash stored at an older, lower cost (written into the server's database as an installation of before would
     * have it) still signs in, and is replaced then by one at today's 600,000 iterations; the password stays the same.
     */
    @Test
    void aHashOfALowerCostIsUpgradedAtTheNextSignIn() throws Exception {
        String name = "older-" + UUID.randomUUID().toString().substring(0, 8);
        byte[] salt = new byte[16];
        new java.security.SecureRandom().nextBytes(salt);
        javax.crypto.spec.PBEKeySpec spec = new javax.crypto.spec.PBEKeySpec("older-password".toCharArray(), salt, 1000, 256);
        byte[] derived = javax.crypto.SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        java.util.Base64.Encoder b64 = java.util.Base64.getEncoder().withoutPadding();
        String older = "pbkdf2-sha256$1000$" + b64.encodeToString(salt) + "$" + b64.encodeToString(derived);
        assertEquals(1, ServerDatabase.update("INSERT INTO app_user (username, password_hash, role, tenant_id, created_at, disabled)"
                + " VALUES ('" + name + "', '" + older + "', 'user', 'default', 0, FALSE)"));
        Api.login(name, "older-password");
        String upgraded = ServerDatabase.queryString("SELECT password_hash FROM app_user WHERE username = '" + name + "'");
        assertTrue(upgraded.startsWith("pbkdf2-sha256$600000$"), upgraded);
        Api.login(name, "older-password");
        assertEquals(upgraded, ServerDatabase.queryString("SELECT password_hash FROM app_user WHERE username = '" + name + "'"),
                "upgraded once");
        assertEquals("invalid_credentials", Api.post("/api/auth/token", null, credentials(name, "wrong")).expect(401).errorCode());
    }
}
