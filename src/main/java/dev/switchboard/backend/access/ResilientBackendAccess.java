package dev.switchboard.backend.access;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.client.InitializeResult;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Backends behind their {@link BackendGuard}s: requests pass the breaker and the bulkhead, look-ups the pool may
 * answer from its cache pass the breaker only. A refusal is an {@link McpException} the gateway answers as
 * backend_unavailable ({@code -32030}), naming the backend and the reason; the backend is not touched.
 */
public final class ResilientBackendAccess implements BackendAccess {

    private final BackendAccess delegate;
    private final Function<BackendTarget, BackendGuard> guards;

    public ResilientBackendAccess(BackendAccess delegate, Function<BackendTarget, BackendGuard> guards) {
        this.delegate = delegate;
        this.guards = guards;
    }

    @Override
    public List<JsonObject> listTools(BackendTarget backend, Duration timeout) throws McpException {
        return guards.apply(backend).lookup(() -> delegate.listTools(backend, timeout));
    }

    @Override
    public InitializeResult initializeResult(BackendTarget backend, Duration timeout) throws McpException {
        return guards.apply(backend).lookup(() -> delegate.initializeResult(backend, timeout));
    }

    @Override
    public JsonObject request(BackendTarget backend, String method, JsonObject params, Duration timeout,
                              Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException {
        return guards.apply(backend).call(() -> delegate.request(backend, method, params, timeout, progress, serverRequests));
    }
}
