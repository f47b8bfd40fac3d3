package dev.switchboard.backend.access;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.client.InitializeResult;
import dev.switchboard.mcp.transport.RequestHeaders;
import dev.switchboard.observability.TraceContext;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Sends the caller's trace to HTTP backends: every message a backend call sends carries a child {@code traceparent}
 * (same trace id, a span of its own per call). Calls run on whichever gateway thread serves them, so the trace
 * travels in this object rather than in the thread.
 */
public final class TracedBackendAccess implements BackendAccess {

    private final BackendAccess delegate;
    private final TraceContext trace;

    public TracedBackendAccess(BackendAccess delegate, TraceContext trace) {
        this.delegate = delegate;
        this.trace = trace;
    }

    @Override
    public List<JsonObject> listTools(BackendTarget backend, Duration timeout) throws McpException {
        return RequestHeaders.with(childHeader(), () -> delegate.listTools(backend, timeout));
    }

    @Override
    public InitializeResult initializeResult(BackendTarget backend, Duration timeout) throws McpException {
        return RequestHeaders.with(childHeader(), () -> delegate.initializeResult(backend, timeout));
    }

    @Override
    public JsonObject request(BackendTarget backend, String method, JsonObject params, Duration timeout,
                              Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException {
        return RequestHeaders.with(childHeader(),
                () -> delegate.request(backend, method, params, timeout, progress, serverRequests));
    }

    private Map<String, String> childHeader() {
        return Map.of(TraceContext.HEADER, trace.child().traceparent());
    }
}
