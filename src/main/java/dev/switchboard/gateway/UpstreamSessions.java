package dev.switchboard.gateway;

import dev.switchboard.backend.connection.BackendConnections;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;

/**
 * The upstream sessions of every transport (Streamable HTTP and WebSocket) and their resource subscriptions, with
 * the relays that hand backend announcements to them: one place, so a backend's change reaches a caller however
 * the caller is connected.
 */
@ApplicationScoped
public class UpstreamSessions {

    @Inject
    GatewayConfiguration configuration;

    @Inject
    BackendConnections connections;

    private GatewaySessions sessions;
    private final ResourceSubscriptions subscriptions = new ResourceSubscriptions();

    @PostConstruct
    void start() {
        sessions = new GatewaySessions(configuration.settings().sessionIdleTimeout(), Clock.systemUTC());
        connections.pool().onToolsListChanged(new ToolsChangedRelay(sessions));
        connections.pool().onNotification(new BackendEventsRelay(sessions, subscriptions));
    }

    @PreDestroy
    void stop() {
        sessions.endAll();
    }

    public GatewaySessions sessions() {
        return sessions;
    }

    public ResourceSubscriptions subscriptions() {
        return subscriptions;
    }
}
