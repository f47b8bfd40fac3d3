package dev.switchboard.gateway.ws;

import dev.switchboard.security.CurrentUser;
import jakarta.enterprise.inject.Vetoed;

import java.util.Set;

/**
 * The caller a WebSocket handshake authenticated, kept for the life of the socket: its messages arrive outside any
 * HTTP request, where the request-scoped {@link CurrentUser} knows nobody. It answers as the handshake's caller did,
 * so the registry shows the socket the same servers. A {@link CurrentUser} rather than a
 * {@link dev.switchboard.security.CallerIdentity} because the registry and the policy take a {@link CurrentUser}
 * (with its token use and client, which an identity does not carry).
 */
@Vetoed
final class HandshakeUser extends CurrentUser {

    private final String subject;
    private final String tenant;
    private final Set<String> roles;
    private final String tokenUse;
    private final String clientId;

    HandshakeUser(CurrentUser handshake) {
        this.subject = handshake.subject();
        this.tenant = handshake.tenant();
        this.roles = handshake.roles();
        this.tokenUse = handshake.tokenUse();
        this.clientId = handshake.clientId();
    }

    @Override
    public boolean isAuthenticated() {
        return true;
    }

    @Override
    public String subject() {
        return subject;
    }

    @Override
    public String tenant() {
        return tenant;
    }

    @Override
    public Set<String> roles() {
        return roles;
    }

    @Override
    public String tokenUse() {
        return tokenUse;
    }

    @Override
    public String clientId() {
        return clientId;
    }
}
