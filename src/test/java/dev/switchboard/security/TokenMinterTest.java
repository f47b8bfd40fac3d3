package dev.switchboard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The token a login or an API key gets, checked the way a standard verifier (and mpJwt) would. */
class TokenMinterTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:15:30.750Z");
    private static final RSAPublicKey PUBLIC = (RSAPublicKey) TestKeys.PAIR.getPublic();
    private static final String KID = RsaJwk.thumbprint(PUBLIC);

    private final TokenMinter minter = new TokenMinter(new JwtSigner(TestKeys.PAIR.getPrivate(), KID), "switchboard",
            Clock.fixed(NOW, ZoneOffset.UTC));
    private final TokenSubject alice = new TokenSubject("alice", Role.ADMIN.groups(), "acme");

    @Test
    void signatureVerifiesWithTheKeyPublishedInTheJwks() throws Exception {
        String token = minter.mint(alice, Duration.ofHours(8), null).token();
        JsonObject jwk = RsaJwk.jwks(PUBLIC).getJsonArray("keys").getJsonObject(0);
        PublicKey fromJwks = RsaJwkTest.publicKey(jwk.getString("n"), jwk.getString("e"));
        assertTrue(verifies(token, fromJwks));
    }

    @Test
    void headerNamesAlgorithmAndKey() {
        JsonObject header = part(minter.mint(alice, Duration.ofHours(8), null).token(), 0);
        assertEquals("RS256", header.getString("alg"));
        assertEquals("JWT", header.getString("typ"));
        assertEquals(KID, header.getString("kid"));
    }

    @Test
    void accessTokenHasTheClaimsMpJwtRequires() {
        IssuedToken issued = minter.mint(alice, Duration.ofHours(8), null);
        JsonObject claims = part(issued.token(), 1);
        assertEquals("switchboard", claims.getString("iss"));
        assertEquals(List.of("switchboard"), claims.getJsonArray("aud").getValuesAs(JsonString::getString));
        assertEquals("alice", claims.getString("sub"));
        assertEquals("alice", claims.getString("upn"));
        assertEquals(Set.of("admin", "user"), claims.getJsonArray("groups").getValuesAs(JsonString.class).stream()
                .map(JsonString::getString).collect(Collectors.toSet()));
        assertEquals("acme", claims.getString("tenant"));
        assertEquals(NOW.getEpochSecond(), claims.getJsonNumber("iat").longValueExact());
        assertEquals(NOW.getEpochSecond() + 8 * 3600, claims.getJsonNumber("exp").longValueExact());
        assertEquals(issued.jti(), claims.getString("jti"));
        assertFalse(claims.containsKey("token_use"));
        assertEquals(Instant.ofEpochSecond(NOW.getEpochSecond()), issued.issuedAt());
        assertEquals(issued.issuedAt().plus(Duration.ofHours(8)), issued.expiresAt());
    }

    @Test
    void apiKeyIsMarkedAndUnique() {
        IssuedToken first = minter.mint(alice, Duration.ofDays(365), "api_key");
        IssuedToken second = minter.mint(alice, Duration.ofDays(365), "api_key");
        assertEquals("api_key", part(first.token(), 1).getString("token_use"));
        assertEquals(NOW.getEpochSecond() + 365L * 86400, part(first.token(), 1).getJsonNumber("exp").longValueExact());
        assertNotEquals(first.jti(), second.jti());
        assertNotEquals(first.token(), second.token());
    }

    @Test
    void tamperedClaimsNoLongerVerify() throws Exception {
        String token = minter.mint(new TokenSubject("bob", Role.USER.groups(), "default"), Duration.ofHours(1), null).token();
        String[] parts = token.split("\\.");
        String forged = Base64Url.encode(new String(Base64Url.decode(parts[1]), StandardCharsets.UTF_8)
                .replace("\"user\"", "\"admin\""));
        assertFalse(verifies(parts[0] + "." + forged + "." + parts[2], PUBLIC));
    }

    @Test
    void tokenIsThreeUnpaddedBase64UrlParts() {
        String token = minter.mint(alice, Duration.ofHours(1), null).token();
        assertTrue(token.matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"), token);
    }

    private static boolean verifies(String token, PublicKey key) throws Exception {
        int lastDot = token.lastIndexOf('.');
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initVerify(key);
        rsa.update(token.substring(0, lastDot).getBytes(StandardCharsets.US_ASCII));
        return rsa.verify(Base64Url.decode(token.substring(lastDot + 1)));
    }

    private static JsonObject part(String token, int index) {
        String json = new String(Base64Url.decode(token.split("\\.")[index]), StandardCharsets.UTF_8);
        return Json.createReader(new StringReader(json)).readObject();
    }
}
