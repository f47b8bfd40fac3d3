package dev.switchboard.backend.access;

import dev.switchboard.mcp.McpException;

/**
 * The JSON-RPC codes a failed backend call is answered with by the gateway and recorded with in the audit trail, the
 * same whether the call came through {@code /mcp} or from a chat run.
 */
public final class BackendFailures {

    public static final int BACKEND_UNAVAILABLE = -32030;
    public static final int BACKEND_TIMEOUT = -32040;
    /** The request was cancelled by the client (the code LSP and several MCP SDKs use). */
    public static final int REQUEST_CANCELLED = -32800;

    private BackendFailures() {
    }

    /**
     * A backend's own JSON-RPC error keeps its code; a timeout is backend_timeout; everything that means the backend
     * could not be reached or broke the session is backend_unavailable.
     */
    public static int codeOf(McpException e) {
        return switch (e.kind()) {
            case RPC_ERROR -> e.rpcCode();
            case TIMEOUT -> BACKEND_TIMEOUT;
            case CANCELLED -> REQUEST_CANCELLED;
            default -> BACKEND_UNAVAILABLE;
        };
    }
}
