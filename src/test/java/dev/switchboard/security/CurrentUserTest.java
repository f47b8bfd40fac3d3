package dev.switchboard.security;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.security.enterprise.SecurityContext;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The caller's tenant, token use and client are read from the validated token's own claims, never through
 * MicroProfile JWT's {@code getClaim} (which Liberty makes expensive for names outside its enum): the fake token
 * here fails the test if anything asks it for a claim by name.
 */
class CurrentUserTest {

    @Test
    void tenantTokenUseAndClientComeFromTheTokensClaims() {
        CurrentUser user = callerWith(claims().add("tenant", "acme").add("token_use", "api_key").add("client_id", "ci-bot"));
        assertTrue(user.isAuthenticated());
        assertEquals("alice", user.subject());
        assertEquals("acme", user.tenant());
        assertTrue(user.isApiKey());
        assertEquals("ci-bot", user.clientId());
    }

    @Test
    void azpNamesTheClientBeforeClientId() {
        assertEquals("web", callerWith(claims().add("azp", "web").add("client_id", "other")).clientId());
    }

    @Test
    void anApiKeyWithoutAClientClaimIsNamedByItsId() {
        assertEquals("api_key:key-1", callerWith(claims().add("token_use", "api_key")).clientId());
    }

    @Test
    void aPlainTokenIsAnAccessTokenOfTheDefaultTenantWithoutAClient() {
        CurrentUser user = callerWith(claims());
        assertEquals("default", user.tenant());
        assertFalse(user.isApiKey());
        assertEquals(CurrentUser.TOKEN_USE_ACCESS, user.tokenUse());
        assertNull(user.clientId());
    }

    @Test
    void claimsThatAreNotStringsAreIgnored() {
        CurrentUser user = callerWith(claims().add("tenant", 42).add("token_use", Json.createArrayBuilder().add("api_key")));
        assertEquals("default", user.tenant());
        assertFalse(user.isApiKey());
    }

    @Test
    void aTokenWithoutAReadablePayloadBelongsToTheDefaultTenant() {
        assertEquals("default", callerWith("not-a-jws").tenant());
        assertEquals("default", callerWith("a.%%%.c").tenant());
        assertEquals("default", callerWith("a." + Base64Url.encode("[1,2]") + ".c").tenant());
    }

    private static jakarta.json.JsonObjectBuilder claims() {
        return Json.createObjectBuilder().add("sub", "alice").add("jti", "key-1");
    }

    private static CurrentUser callerWith(jakarta.json.JsonObjectBuilder claims) {
        JsonObject payload = claims.build();
        return callerWith(Base64Url.encode("{\"alg\":\"RS256\"}") + "." + Base64Url.encode(
                payload.toString().getBytes(StandardCharsets.UTF_8)) + ".signature-checked-by-the-container");
    }

    private static CurrentUser callerWith(String rawToken) {
        JsonWebToken token = (JsonWebToken) Proxy.newProxyInstance(CurrentUserTest.class.getClassLoader(),
                new Class<?>[] {JsonWebToken.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getRawToken" -> rawToken;
                    case "getSubject", "getName" -> "alice";
                    case "getTokenID" -> "key-1";
                    case "getGroups" -> Set.of("user");
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new AssertionError("asked the token for " + method.getName());
                });
        CurrentUser user = new CurrentUser();
        user.securityContext = (SecurityContext) Proxy.newProxyInstance(CurrentUserTest.class.getClassLoader(),
                new Class<?>[] {SecurityContext.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getCallerPrincipal" -> token;
                    case "getPrincipalsByType" -> Set.of(token);
                    default -> null;
                });
        user.defaultTenant = new DefaultTenant("default");
        return user;
    }
}
