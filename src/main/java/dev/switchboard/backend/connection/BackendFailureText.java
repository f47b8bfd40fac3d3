package dev.switchboard.backend.connection;

import dev.switchboard.mcp.McpException;

/**
 * The one rule for what a caller is told when a backend failed (REST connect and tool answers, server status,
 * {@code /mcp} errors, chat tool results, and so the console): admins get the failure in full; everyone else what
 * failed, in words, and nothing the backend's HTTP layer said (no body excerpt, no stream content, no URL of a
 * shared server), so a server a user registered cannot be used to read what some other service answers. The
 * server's log always has the full text.
 * <p>
 * What passes unchanged: a failure in Switchboard's {@linkplain McpException#isOwnWords own words} (an address
 * refused before anything was sent, a breaker or bulkhead refusing the call) and a JSON-RPC error (an MCP server's
 * error answer is part of the protocol, like a tool's result).
 */
public final class BackendFailureText {

    /** What anyone is told of a server that wants an OAuth access token (no connect flow for servers exists yet). */
    public static final String AUTHORIZATION_REQUIRED = "the server requires an OAuth sign-in (HTTP 401 naming its "
            + "protected resource metadata), which Switchboard cannot make for registered servers yet: give the server "
            + "a static token in its headers, if it accepts one";

    private BackendFailureText() {
    }

    public static String forCaller(McpException e, boolean admin) {
        if (admin || e.isOwnWords() || e.kind() == McpException.Kind.RPC_ERROR) {
            return e.getMessage();
        }
        return switch (e.kind()) {
            case ADDRESS_DENIED, RPC_ERROR -> e.getMessage();
            case DNS -> "the server's host name does not resolve";
            case CONNECT_REFUSED -> "the connection was refused";
            case TIMEOUT -> "the server did not answer in time";
            case HTTP_STATUS -> "the server answered HTTP " + e.httpStatus();
            case AUTHORIZATION_REQUIRED -> AUTHORIZATION_REQUIRED;
            case PROTOCOL -> "the server's answer is not MCP";
            case CLOSED -> "the connection to the server broke";
            case CANCELLED -> "the request was cancelled";
        };
    }

    /** The same failure (kind, status, JSON-RPC code and data) with the message the caller may see. */
    public static McpException asSeenBy(McpException e, boolean admin) {
        String text = forCaller(e, admin);
        return text.equals(e.getMessage()) ? e
                : new McpException(e.kind(), text, null, e.httpStatus(), e.rpcCode(), e.rpcData());
    }
}
