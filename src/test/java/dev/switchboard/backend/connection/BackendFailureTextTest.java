package dev.switchboard.backend.connection;

import dev.switchboard.mcp.McpException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** What of a backend's failure a caller sees: everything for admins, words for everyone else. */
class BackendFailureTextTest {

    private static final String BODY = "{\"error\":\"jwks internals\"}";

    @Test
    void usersGetWordsWithoutWhatTheBackendSaid() {
        assertEquals("the server answered HTTP 405", user(McpException.httpStatus(405,
                "HTTP 405 from POST http://127.0.0.1:8080/api/auth/jwks: " + BODY)));
        assertEquals("the connection was refused", user(new McpException(McpException.Kind.CONNECT_REFUSED,
                "connection to http://127.0.0.1:3306/mcp refused: Connection refused")));
        assertEquals("the server did not answer in time", user(new McpException(McpException.Kind.TIMEOUT, "no HTTP answer from x in time")));
        assertEquals("the server's answer is not MCP", user(new McpException(McpException.Kind.PROTOCOL, "not JSON: ami-id\nhostname")));
        assertEquals("the connection to the server broke", user(new McpException(McpException.Kind.CLOSED, "stream broke: " + BODY)));
        assertEquals("the server's host name does not resolve", user(new McpException(McpException.Kind.DNS, "cannot resolve host x")));
        assertEquals("the request was cancelled", user(new McpException(McpException.Kind.CANCELLED, "cancelled")));
        McpException oauth = new McpException(McpException.Kind.AUTHORIZATION_REQUIRED, "HTTP 401 from POST x: the server requires an "
                + "OAuth access token; its protected resource metadata is at http://10.0.0.5/.well-known/oauth-protected-resource", null, 401, 0, null);
        assertEquals(BackendFailureText.AUTHORIZATION_REQUIRED, user(oauth));
        assertEquals(McpException.Kind.AUTHORIZATION_REQUIRED, BackendFailureText.asSeenBy(oauth, false).kind(), "the kind stays, for the typed error");
    }

    @Test
    void adminsGetEverything() {
        McpException status = McpException.httpStatus(405, "HTTP 405 from POST http://127.0.0.1:8080/api/auth/jwks: " + BODY);
        assertEquals(status.getMessage(), BackendFailureText.forCaller(status, true));
        assertSame(status, BackendFailureText.asSeenBy(status, true));
    }

    @Test
    void ownWordsAndJsonRpcErrorsPassUnchanged() {
        McpException denied = McpException.ownWords(McpException.Kind.ADDRESS_DENIED,
                "address not allowed: 127.0.0.1 is loopback; an admin can allow it for this tenant", null);
        assertSame(denied, BackendFailureText.asSeenBy(denied, false));
        McpException breaker = McpException.ownWords(McpException.Kind.CONNECT_REFUSED, "circuit breaker open: 2 of the last 2 calls failed", null);
        assertEquals(breaker.getMessage(), user(breaker));
        McpException rpc = McpException.rpcError(-32602, "tools/call: Unknown tool: x", null);
        assertSame(rpc, BackendFailureText.asSeenBy(rpc, false));
    }

    @Test
    void theCallersViewKeepsKindStatusAndCode() {
        McpException seen = BackendFailureText.asSeenBy(McpException.httpStatus(502, "HTTP 502 from GET x: " + BODY), false);
        assertEquals(McpException.Kind.HTTP_STATUS, seen.kind());
        assertEquals(502, seen.httpStatus());
        assertEquals("the server answered HTTP 502", seen.getMessage());
    }

    private static String user(McpException e) {
        return BackendFailureText.forCaller(e, false);
    }
}
