package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.backend.access.BackendTarget;
import dev.switchboard.backend.connection.BackendFailureText;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.client.InitializeResult;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The outermost backend access of a caller's router: a backend failure leaves it in the words the caller may see
 * ({@link BackendFailureText}), so every {@code /mcp} answer built from it (errors, left-out backends) holds no more
 * than that; the full text goes to the log here.
 */
final class CallerFacingBackendAccess implements BackendAccess {

    private static final Logger LOG = Logger.getLogger(CallerFacingBackendAccess.class.getName());

    private final BackendAccess delegate;
    private final boolean admin;

    CallerFacingBackendAccess(BackendAccess delegate, boolean admin) {
        this.delegate = delegate;
        this.admin = admin;
    }

    @Override
    public List<JsonObject> listTools(BackendTarget backend, Duration timeout) throws McpException {
        try {
            return delegate.listTools(backend, timeout);
        } catch (McpException e) {
            throw seen(backend, "tools/list", e);
        }
    }

    @Override
    public InitializeResult initializeResult(BackendTarget backend, Duration timeout) throws McpException {
        try {
            return delegate.initializeResult(backend, timeout);
        } catch (McpException e) {
            throw seen(backend, "initialize", e);
        }
    }

    @Override
    public JsonObject request(BackendTarget backend, String method, JsonObject params, Duration timeout,
                              Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException {
        try {
            return delegate.request(backend, method, params, timeout, progress, serverRequests);
        } catch (McpException e) {
            throw seen(backend, method, e);
        }
    }

    private McpException seen(BackendTarget backend, String method, McpException e) {
        if (e.kind() != McpException.Kind.RPC_ERROR) {
            LOG.info(() -> "backend " + backend.name() + " failed " + method + ": " + e.kind() + " " + e.getMessage());
        }
        return BackendFailureText.asSeenBy(e, admin);
    }
}
