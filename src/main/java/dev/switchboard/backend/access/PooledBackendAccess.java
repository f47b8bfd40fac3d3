package dev.switchboard.backend.access;

import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.client.InitializeResult;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Backends through the shared connection pool, keyed by (caller subject, server): every client session of one
 * caller shares that caller's backend sessions, exactly like the REST API and the chat loop do.
 */
public final class PooledBackendAccess implements BackendAccess {

    private final BackendConnectionPool pool;
    private final String subject;

    public PooledBackendAccess(BackendConnectionPool pool, String subject) {
        this.pool = pool;
        this.subject = subject;
    }

    @Override
    public List<JsonObject> listTools(BackendTarget backend, Duration timeout) throws McpException {
        return pool.listTools(subject, backend.poolId(), backend.spec(), timeout);
    }

    /** The pool connects within its own connect timeout; the caller's deadline bounds how long it waits for that. */
    @Override
    public InitializeResult initializeResult(BackendTarget backend, Duration timeout) throws McpException {
        return pool.initializeResult(subject, backend.poolId(), backend.spec());
    }

    @Override
    public JsonObject request(BackendTarget backend, String method, JsonObject params, Duration timeout,
                              Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException {
        return pool.request(subject, backend.poolId(), backend.spec(), method, params, timeout, progress, serverRequests);
    }
}
