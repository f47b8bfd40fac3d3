package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendFailures;
import dev.switchboard.mcp.JsonRpcErrorCodes;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** JSON-RPC error codes the gateway answers with (docs/gateway.md, section "tools/call") and the mapping of backend failures. */
public final class GatewayErrors {

    public static final int PARSE_ERROR = JsonRpcErrorCodes.PARSE_ERROR;
    public static final int INVALID_REQUEST = JsonRpcErrorCodes.INVALID_REQUEST;
    public static final int METHOD_NOT_FOUND = JsonRpcErrorCodes.METHOD_NOT_FOUND;
    public static final int INVALID_PARAMS = JsonRpcErrorCodes.INVALID_PARAMS;
    public static final int INTERNAL_ERROR = JsonRpcErrorCodes.INTERNAL_ERROR;
    /** The code the reference SDK servers answer an unknown resource with. */
    public static final int RESOURCE_NOT_FOUND = -32002;
    /** Over the tenant's rate limit (the gateway's governance error model); {@code error.data.retryAfterMs} says when to try again. */
    public static final int RATE_LIMITED = -32010;
    /** Refused by the tenant's policy (the gateway's governance error model). */
    public static final int POLICY_DENIED = -32020;
    public static final int BACKEND_UNAVAILABLE = BackendFailures.BACKEND_UNAVAILABLE;
    public static final int BACKEND_TIMEOUT = BackendFailures.BACKEND_TIMEOUT;
    /**
     * The call's audit event could not be made durable, so its answer is withheld (or, with the audit database down,
     * the call was refused before it ran); retry later.
     */
    public static final int AUDIT_UNAVAILABLE = -32050;
    /** The request was cancelled by the client (the code LSP and several MCP SDKs use). */
    public static final int REQUEST_CANCELLED = BackendFailures.REQUEST_CANCELLED;

    private GatewayErrors() {
    }

    /**
     * An error response. Without an id (null or JSON null: the message had none, or could not be read) the response
     * has no {@code id} member at all: MCP 2025-11-25's JSONRPCErrorResponse makes the id optional but, when present,
     * a string or an integer, so JSON-RPC's {@code "id": null} fails the schema and the SDKs' parsers.
     */
    public static JsonRpcMessage error(JsonValue id, int code, String message, JsonValue data) {
        JsonObjectBuilder error = JSON.createObjectBuilder().add("code", code).add("message", message);
        if (data != null) {
            error.add("data", data);
        }
        JsonObjectBuilder response = JSON.createObjectBuilder().add("jsonrpc", "2.0");
        if (id != null && id.getValueType() != JsonValue.ValueType.NULL) {
            response.add("id", id);
        }
        return new JsonRpcMessage(response.add("error", error).build());
    }

    /**
     * A backend's own JSON-RPC error passes through with its code and data; a timeout is backend_timeout;
     * everything that means the backend could not be reached or broke the session is backend_unavailable.
     */
    public static JsonRpcMessage fromBackend(JsonValue id, String backend, String method, McpException e) {
        JsonValue data = JSON.createObjectBuilder().add("backend", backend).build();
        return switch (e.kind()) {
            case RPC_ERROR -> error(id, BackendFailures.codeOf(e), stripMethod(method, e.getMessage()), e.rpcData());
            case TIMEOUT -> error(id, BackendFailures.codeOf(e), "backend_timeout: " + backend + " did not answer " + method
                    + " in time", data);
            case CANCELLED -> error(id, BackendFailures.codeOf(e), "Request cancelled", null);
            case AUTHORIZATION_REQUIRED -> error(id, BackendFailures.codeOf(e), "backend_unavailable: " + backend + ": "
                    + e.getMessage(), JSON.createObjectBuilder().add("backend", backend).add("reason", "authorization_required").build());
            default -> error(id, BackendFailures.codeOf(e), "backend_unavailable: " + backend + ": " + e.getMessage(), data);
        };
    }

    /** The client transport prefixes backend error messages with the method; the client asked for no such prefix. */
    private static String stripMethod(String method, String message) {
        String prefix = method + ": ";
        return message != null && message.startsWith(prefix) ? message.substring(prefix.length()) : String.valueOf(message);
    }
}
