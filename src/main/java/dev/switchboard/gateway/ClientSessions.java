package dev.switchboard.gateway;

import dev.switchboard.backend.connection.BackendConnections;
import dev.switchboard.gateway.record.SessionRecorder;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The client sessions of every transport (Streamable HTTP and WebSocket) and their resource subscriptions, with
 * the relays that hand backend announcements to them: one place, so a backend's change reaches a caller however
 * the caller is connected.
 */
@ApplicationScoped
public class ClientSessions {

    @Inject
    GatewayConfiguration configuration;

    @Inject
    BackendConnections connections;

    @Inject
    SessionRecorder recorder;

    /** Only in cluster mode (the cluster room provides it); a single instance keeps its streams in memory. */
    @Inject
    Instance<SharedSseStreams> sharedStreams;

    @Inject
    ClientMessageRoute route;

    private GatewaySessions sessions;
    private SharedSseStreams shared;
    private ClientMessages messages;
    private final ResourceSubscriptions subscriptions = new ResourceSubscriptions();
    private final ListenStreams listens = new ListenStreams();

    @PostConstruct
    void start() {
        shared = sharedStreams.isResolvable() ? sharedStreams.get() : null;
        ServerStreams serverStreams = shared == null ? ServerStreams.NONE : shared;
        sessions = new GatewaySessions(configuration.settings().sessionIdleTimeout(), Clock.systemUTC(), recorder,
                serverStreams, route.member());
        messages = new ClientMessages(sessions, route);
        connections.pool().onToolsListChanged(new ToolsChangedRelay(sessions, listens, serverStreams));
        connections.pool().onNotification(new BackendEventsRelay(sessions, subscriptions, listens, serverStreams));
        connections.pool().onServerRequestOutsideCalls(new RootsRelay(sessions, configuration.outsideRequestWait()));
    }

    @PreDestroy
    void stop() {
        sessions.endAll();
    }

    public GatewaySessions sessions() {
        return sessions;
    }

    /**
     * The client's responses to backends' requests and its cancellations, wherever in the cluster the request they
     * name is held.
     */
    public ClientMessages messages() {
        return messages;
    }

    /** Records sessions as they open (the transports know the client and version), use and end. */
    public SessionRecorder recorder() {
        return recorder;
    }

    /** A client said its roots changed: the caller's open backend connections are told, so they ask again. */
    public void rootsChanged(String subject, List<GatewayBackend> backends) {
        RootsRelay.rootsChanged(connections.pool(), subject, backends);
    }

    /** The stateless clients' {@code subscriptions/listen} streams. */
    public ListenStreams listens() {
        return listens;
    }

    /** The streams every member of the cluster shares, or empty on a single instance (which keeps its own). */
    public Optional<SseStreams> sharedStreams() {
        return Optional.ofNullable(shared);
    }

    public ResourceSubscriptions subscriptions() {
        return subscriptions;
    }
}
