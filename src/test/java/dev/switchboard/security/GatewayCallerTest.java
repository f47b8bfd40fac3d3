package dev.switchboard.security;

import jakarta.security.enterprise.SecurityContext;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Anonymous MCP: off by default, loopback only unless widened, never for a request that brought a token. */
class GatewayCallerTest {

    static GatewayCaller caller(boolean allowed, boolean loopbackOnly, String remoteAddress, Map<String, String> headers) {
        GatewayCaller caller = new GatewayCaller();
        caller.securityContext = (SecurityContext) Proxy.newProxyInstance(GatewayCallerTest.class.getClassLoader(),
                new Class<?>[] {SecurityContext.class}, (proxy, method, args) -> null);
        caller.request = (HttpServletRequest) Proxy.newProxyInstance(GatewayCallerTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getRemoteAddr" -> remoteAddress;
                    case "getHeader" -> headers.get((String) args[0]);
                    default -> null;
                });
        caller.defaultTenant = new DefaultTenant("default");
        caller.anonymousMcp = new AnonymousMcp(allowed, loopbackOnly);
        return caller;
    }

    @Test
    void offByDefaultATokenlessCallerIsNobody() {
        GatewayCaller caller = caller(false, true, "127.0.0.1", Map.of());
        assertFalse(caller.isAuthenticated());
        assertNull(caller.subject());
    }

    @Test
    void onATokenlessLoopbackCallerIsTheFixedLowPrivilegePrincipal() {
        for (String loopback : new String[] {"127.0.0.1", "0:0:0:0:0:0:0:1", "::1"}) {
            GatewayCaller caller = caller(true, true, loopback, Map.of());
            assertTrue(caller.isAuthenticated(), loopback);
            assertTrue(caller.isAnonymous());
            assertEquals("(anonymous)", caller.subject());
            assertEquals("default", caller.tenant());
            assertEquals(Set.of("user"), caller.roles());
            assertFalse(caller.isAdmin());
            assertFalse(caller.isApiKey());
            assertEquals("anonymous", caller.clientId());
            assertNull(caller.rawToken());
        }
    }

    @Test
    void onlyLoopbackCallersUnlessWidened() {
        assertFalse(caller(true, true, "192.168.1.20", Map.of()).isAuthenticated());
        assertTrue(caller(true, false, "192.168.1.20", Map.of()).isAuthenticated());
    }

    @Test
    void aRequestWithCredentialsIsJudgedByThemNeverMadeAnonymous() {
        GatewayCaller caller = caller(true, true, "127.0.0.1", Map.of("Authorization", "Bearer not-a-token"));
        assertFalse(caller.isAuthenticated());
    }
}
