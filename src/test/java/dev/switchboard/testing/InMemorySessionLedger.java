package dev.switchboard.testing;

import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.SessionLedger;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The database's record of {@code /mcp} sessions as several instances share it, in memory: a session one instance
 * opened ({@link #opened}) is taken up by another that is asked for it.
 */
public final class InMemorySessionLedger implements SessionLedger {

    private final Map<String, Resumable> open = new ConcurrentHashMap<>();
    private final JsonObject clientCapabilities;

    /** @param clientCapabilities what every recorded session's client declared */
    public InMemorySessionLedger(JsonObject clientCapabilities) {
        this.clientCapabilities = clientCapabilities;
    }

    /** A client that offers sampling. */
    public static InMemorySessionLedger ofSamplingClients() {
        return new InMemorySessionLedger(Json.createObjectBuilder().add("sampling", Json.createObjectBuilder()).build());
    }

    /** As the transports record a session they opened; the session. */
    public GatewaySession opened(GatewaySession session) {
        open.put(session.id(), new Resumable(session.subject(), session.endpoint(), session.protocolVersion(),
                clientCapabilities, Instant.now()));
        return session;
    }

    @Override
    public void seen(GatewaySession session, Instant at) {
    }

    @Override
    public void ended(GatewaySession session, EndReason reason) {
        open.remove(session.id());
    }

    @Override
    public boolean endedIdle(GatewaySession session, Instant idleSince) {
        return open.remove(session.id()) != null;
    }

    @Override
    public Optional<Resumable> resumable(String sessionId) {
        return Optional.ofNullable(open.get(sessionId));
    }
}
