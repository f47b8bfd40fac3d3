package dev.switchboard.gateway.modern;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.mcp.McpErrorCodes;

import java.util.Map;

/**
 * The error codes a stateless-era client sees (docs/gateway.md, "Error codes by era"). The gateway's own codes of the
 * session era (-32010 rate limited, -32020 policy denied, -32030 backend unavailable, -32040 backend timeout) lie in
 * the range 2026-07-28 reserves for the specification, where -32020 now means a header mismatch; such a client gets
 * them in a block of the gateway's own outside JSON-RPC's reserved range instead, and a backend's own code that would
 * be ambiguous there (the specification's range, or that block) arrives as {@link #BACKEND_CODE} with the backend's
 * code in its data. Everything else keeps its code.
 */
public final class ModernErrorCodes {

    public static final int RATE_LIMITED = -31010;
    public static final int POLICY_DENIED = -31020;
    public static final int BACKEND_UNAVAILABLE = -31030;
    public static final int BACKEND_TIMEOUT = -31040;
    /**
     * A session-era backend asked the client something (sampling, elicitation, roots) that the gateway cannot pass on
     * as {@code input_required}: while serving a request the era does not let answer so, or with this member's paused
     * calls at their limit ({@link PausedCalls}).
     */
    public static final int CLIENT_INPUT_NOT_BRIDGED = -31050;
    /** A backend answered with a code a stateless client would misread; {@code data.backendCode} has it. */
    public static final int BACKEND_CODE = -31099;

    private static final Map<Integer, Integer> OF_GATEWAY = Map.of(
            GatewayErrors.RATE_LIMITED, RATE_LIMITED,
            GatewayErrors.POLICY_DENIED, POLICY_DENIED,
            GatewayErrors.BACKEND_UNAVAILABLE, BACKEND_UNAVAILABLE,
            GatewayErrors.BACKEND_TIMEOUT, BACKEND_TIMEOUT,
            GatewayErrors.RESOURCE_NOT_FOUND, GatewayErrors.INVALID_PARAMS);

    private ModernErrorCodes() {
    }

    /** A code of the gateway's session-era answers as a stateless client sees it. */
    static int ofGateway(int code) {
        return OF_GATEWAY.getOrDefault(code, code);
    }

    /** Whether a backend's own code must not reach a stateless client as it is. */
    static boolean ambiguousFromBackend(int code) {
        return McpErrorCodes.reservedBySpecification(code) || code <= -31000 && code >= -31099;
    }
}
