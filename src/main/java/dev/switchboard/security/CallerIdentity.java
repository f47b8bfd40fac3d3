package dev.switchboard.security;

import java.util.Set;

/**
 * Who calls, as a value: the verified token's or API key's subject, tenant and roles (never the token itself), copied
 * from the request-scoped {@link CurrentUser} on the request thread so that work which outlives the request (a chat
 * run, the gateway's calls on its own threads, a built-in server's pooled connection) still knows whose it is. The one
 * caller type of the application; the other classes named after callers differ on purpose and say why:
 * {@link GatewayCaller} is the request-scoped {@link CurrentUser} of {@code /mcp} (it may be the anonymous principal),
 * {@code gateway.ws.HandshakeUser} is a {@link CurrentUser} kept for a socket's life, {@code gateway.ClientContext}
 * adds the client session and trace, and {@code sql.Caller} is the query dialect's own principal.
 */
public record CallerIdentity(String subject, String tenant, Set<String> roles) {

    public CallerIdentity {
        roles = Set.copyOf(roles);
    }

    /** A copy made on the request's thread: the pool may connect later, outside the request. */
    public static CallerIdentity of(CurrentUser user) {
        return new CallerIdentity(user.subject(), user.tenant(), user.roles());
    }
}
