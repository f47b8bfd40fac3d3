package dev.switchboard.gateway;

import dev.switchboard.observability.TraceContext;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.security.Role;

/**
 * Who calls through one client session, from which client application, in which trace: taken on the request thread
 * when the session's router is made, because calls run later on gateway threads where no request scope exists. Not
 * a caller type of its own: the caller is its {@link CallerIdentity}; the rest is what the gateway's layers (policy,
 * audit, metrics, the backend calls' trace) need beside it.
 *
 * @param clientId  the client application: the token's {@code azp}/{@code client_id}, or the API key; null when the
 *                  token names none
 * @param sessionId the client's MCP session the calls come through; null for a request without one (MCP 2026-07-28)
 */
public record ClientContext(CallerIdentity caller, String clientId, String sessionId, TraceContext trace) {

    public String subject() {
        return caller.subject();
    }

    public String tenantId() {
        return caller.tenant();
    }

    /** Whether backend failures are answered to this caller in full ({@code BackendFailureText}). */
    public boolean admin() {
        return caller.roles().contains(Role.ADMIN.claim());
    }
}
