package dev.switchboard.gateway.ws;

import dev.switchboard.gateway.GatewayConfiguration;
import dev.switchboard.gateway.http.OriginPolicy;
import dev.switchboard.security.ApiKeyCheck;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.security.GatewayCaller;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;

/**
 * The handshake of {@code /mcp} over WebSocket: the {@code Origin} allow list of the HTTP endpoint (a refused origin
 * gets 403), and the caller. Liberty's MicroProfile JWT verifies the handshake's {@code Authorization: Bearer}
 * (token or API key) with the same keys as every HTTP request, so rather than verifying it a second time the caller
 * is taken from {@link CurrentUser} while the handshake request is still in scope, checked for a revoked API key, and
 * kept with the socket. A handshake without a valid token still opens: the query dialect authenticates in-band.
 */
public class McpSocketConfigurator extends ServerEndpointConfig.Configurator {

    static final String CALLER = "switchboard.caller";

    @Override
    public boolean checkOrigin(String originHeaderValue) {
        OriginPolicy origins = new OriginPolicy(CDI.current().select(GatewayConfiguration.class).get().settings().allowedOrigins());
        return origins.allows(originHeaderValue);
    }

    @Override
    public void modifyHandshake(ServerEndpointConfig config, HandshakeRequest request, HandshakeResponse response) {
        CurrentUser caller = CDI.current().select(GatewayCaller.class).get();
        ApiKeyCheck apiKeyCheck = CDI.current().select(ApiKeyCheck.class).get();
        if (caller.isAuthenticated() && !apiKeyCheck.rejects(caller)) {
            config.getUserProperties().put(CALLER, new HandshakeUser(caller));
        } else {
            config.getUserProperties().remove(CALLER);
        }
    }
}
