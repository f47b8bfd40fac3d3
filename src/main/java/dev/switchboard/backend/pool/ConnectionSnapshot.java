package dev.switchboard.backend.pool;

import dev.switchboard.mcp.McpException;

import java.time.Instant;

/**
 * A read-only view of one pooled connection, for status pages and metrics.
 *
 * @param lastFailure     why the last connect or call broke the connection; null when healthy
 * @param protocolVersion the negotiated version while connected, else null
 * @param cachedTools     number of tools in the cache, or -1 when nothing is cached
 * @param backendSessionId the backend's own session id ({@code Mcp-Session-Id}) while connected, else null
 */
public record ConnectionSnapshot(PoolKey key, ConnectionState state, McpException lastFailure, Instant lastActiveAt,
                                 String protocolVersion, int cachedTools, String backendSessionId) {

    /** The last failure in full (for admins and logs; users see it through {@code BackendFailureText}). */
    public String lastError() {
        return lastFailure == null ? null : lastFailure.getMessage();
    }
}
