package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.McpException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLHandshakeException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** What Apache HttpClient throws maps to the same failure kinds the JDK client's exceptions did. */
class HttpFailuresTest {

    private static final URI BACKEND = URI.create("http://backend.example:8080/mcp");

    @Test
    void refusedConnectionsAreConnectRefused() {
        assertKind(McpException.Kind.CONNECT_REFUSED, new HttpHostConnectException("Connect to backend.example:8080 failed"));
        assertKind(McpException.Kind.CONNECT_REFUSED, new ConnectException("Connection refused"));
    }

    @Test
    void timeoutsOfEveryPhaseAreTimeouts() {
        assertKind(McpException.Kind.TIMEOUT, new ConnectTimeoutException("Connect to backend.example:8080 timed out"));
        assertKind(McpException.Kind.TIMEOUT, new SocketTimeoutException("Read timed out"));
        assertKind(McpException.Kind.TIMEOUT, new ConnectionRequestTimeoutException("Timeout waiting for connection from pool"));
    }

    @Test
    void anUnknownHostIsDns() {
        assertKind(McpException.Kind.DNS, new UnknownHostException("backend.example"));
    }

    @Test
    void aConnectionThatBrokeOrNeverAnsweredIsClosed() {
        assertKind(McpException.Kind.CLOSED, new NoHttpResponseException("backend.example:8080 failed to respond"));
        assertKind(McpException.Kind.CLOSED, new SocketException("Connection reset"));
        assertKind(McpException.Kind.CLOSED, new SSLHandshakeException("PKIX path building failed"));
    }

    @Test
    void anInterruptedExchangeIsCancelled() {
        assertKind(McpException.Kind.CANCELLED, new ClosedByInterruptException());
    }

    @Test
    void futurePlumbingIsUnwrappedAndClassifiedFailuresPassThrough() {
        assertKind(McpException.Kind.CONNECT_REFUSED, new CompletionException(new ExecutionException(new ConnectException())));
        McpException classified = new McpException(McpException.Kind.PROTOCOL, "already classified");
        assertSame(classified, HttpFailures.classify(classified, BACKEND));
        assertKind(McpException.Kind.PROTOCOL, new IllegalStateException("not an I/O failure"));
    }

    private static void assertKind(McpException.Kind expected, Throwable error) {
        McpException classified = HttpFailures.classify(error, BACKEND);
        assertEquals(expected, classified.kind(), () -> error + " -> " + classified.getMessage());
    }

    @Test
    void a401NamingProtectedResourceMetadataIsAnAuthorizationRequired() {
        org.apache.hc.core5.http.message.BasicClassicHttpResponse oauth = new org.apache.hc.core5.http.message.BasicClassicHttpResponse(401);
        oauth.addHeader("WWW-Authenticate", "Basic realm=\"x\"");
        oauth.addHeader("WWW-Authenticate", "Bearer realm=\"mcp\", resource_metadata=\"https://mcp.example.com/.well-known/"
                + "oauth-protected-resource/mcp\", scope=\"files:read files:write\", error=\"invalid_token\"");
        McpException e = HttpFailures.status(oauth, "POST", BACKEND);
        assertEquals(McpException.Kind.AUTHORIZATION_REQUIRED, e.kind());
        assertEquals(401, e.httpStatus());
        assertEquals("{\"resourceMetadata\":\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\","
                + "\"scope\":\"files:read files:write\"}", e.rpcData().toString());

        for (String challenge : new String[] {"Bearer realm=\"mcp\"", "Bearer resource_metadata=\"javascript:alert(1)\"",
                "Bearer resource_metadata=\"" + "x".repeat(5000) + "\""}) {
            org.apache.hc.core5.http.message.BasicClassicHttpResponse plain = new org.apache.hc.core5.http.message.BasicClassicHttpResponse(401);
            plain.addHeader("WWW-Authenticate", challenge);
            assertEquals(McpException.Kind.HTTP_STATUS, HttpFailures.status(plain, "POST", BACKEND).kind(), challenge);
        }
    }
}
