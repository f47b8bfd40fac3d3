package dev.switchboard.security;

import jakarta.json.JsonObject;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class ProtectedResourceMetadataTest {

    /** A request to http://gw.example:8080/mcp. */
    private static final HttpServletRequest REQUEST = (HttpServletRequest) Proxy.newProxyInstance(
            ProtectedResourceMetadataTest.class.getClassLoader(), new Class<?>[]{HttpServletRequest.class},
            (proxy, method, args) -> Map.<String, Object>of("getScheme", "http", "getServerName", "gw.example",
                    "getServerPort", 8080, "getContextPath", "").get(method.getName()));

    @Test
    void theBuiltInIssuerNamesNoAuthorizationServerAndTheResourceIsTheEndpoint() {
        ProtectedResourceMetadata metadata = new ProtectedResourceMetadata("switchboard", Optional.empty(), Optional.empty());
        JsonObject document = metadata.document(REQUEST, "/mcp/servers/weather");
        assertEquals("http://gw.example:8080/mcp/servers/weather", document.getString("resource"));
        assertEquals("[\"header\"]", document.getJsonArray("bearer_methods_supported").toString());
        assertFalse(document.containsKey("authorization_servers"), document::toString);
        assertFalse(document.containsKey("scopes_supported"), document::toString);
        assertEquals("Bearer realm=\"switchboard\", resource_metadata=\"http://gw.example:8080/.well-known/oauth-protected-resource/mcp\"",
                metadata.challenge(REQUEST, "/mcp", null));
    }

    @Test
    void anExternalIssuerIsTheAuthorizationServerAndThePublicUrlWins() {
        ProtectedResourceMetadata metadata = new ProtectedResourceMetadata("https://sso.example.com/realms/acme",
                Optional.of("https://mcp.example.com/"), Optional.of(List.of("mcp:tools", "mcp:resources")));
        JsonObject document = metadata.document(REQUEST, "/mcp");
        assertEquals("https://mcp.example.com/mcp", document.getString("resource"));
        assertEquals("[\"https://sso.example.com/realms/acme\"]", document.getJsonArray("authorization_servers").toString());
        assertEquals("[\"mcp:tools\",\"mcp:resources\"]", document.getJsonArray("scopes_supported").toString());
        assertEquals("Bearer realm=\"switchboard\", resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\", "
                + "scope=\"mcp:tools mcp:resources\", error=\"invalid_token\"", metadata.challenge(REQUEST, "/mcp", "error=\"invalid_token\""));
    }
}
