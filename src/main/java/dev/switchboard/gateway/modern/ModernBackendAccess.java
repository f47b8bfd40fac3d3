package dev.switchboard.gateway.modern;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.backend.access.BackendTarget;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.mcp.McpErrorCodes;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.client.InitializeResult;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * A stateless client's backend access: a backend's own JSON-RPC error code is settled where it comes from, before
 * any layer above reads it, so that the codes the router stack answers with are the gateway's own and can be
 * translated by {@link ModernErrorCodes} without a doubt about who meant what. A session-era resource-not-found
 * becomes invalid params, as 2026-07-28 has it; a code the client would misread becomes
 * {@link ModernErrorCodes#BACKEND_CODE}.
 */
public final class ModernBackendAccess implements BackendAccess {

    private final BackendAccess delegate;

    public ModernBackendAccess(BackendAccess delegate) {
        this.delegate = delegate;
    }

    @Override
    public List<JsonObject> listTools(BackendTarget backend, Duration timeout) throws McpException {
        try {
            return delegate.listTools(backend, timeout);
        } catch (McpException e) {
            throw settled(e);
        }
    }

    @Override
    public InitializeResult initializeResult(BackendTarget backend, Duration timeout) throws McpException {
        try {
            return delegate.initializeResult(backend, timeout);
        } catch (McpException e) {
            throw settled(e);
        }
    }

    @Override
    public JsonObject request(BackendTarget backend, String method, JsonObject params, Duration timeout,
                              Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException {
        try {
            return delegate.request(backend, method, params, timeout, progress, serverRequests);
        } catch (McpException e) {
            throw settled(e);
        }
    }

    static McpException settled(McpException e) {
        if (e.kind() != McpException.Kind.RPC_ERROR) {
            return e;
        }
        if (e.rpcCode() == McpErrorCodes.LEGACY_RESOURCE_NOT_FOUND) {
            return McpException.rpcError(GatewayErrors.INVALID_PARAMS, e.getMessage(), e.rpcData());
        }
        if (!ModernErrorCodes.ambiguousFromBackend(e.rpcCode())) {
            return e;
        }
        var data = JSON.createObjectBuilder().add("backendCode", e.rpcCode());
        if (e.rpcData() != null && e.rpcData() != JsonValue.NULL) {
            data.add("backendData", e.rpcData());
        }
        return McpException.rpcError(ModernErrorCodes.BACKEND_CODE, e.getMessage(), data.build());
    }
}
