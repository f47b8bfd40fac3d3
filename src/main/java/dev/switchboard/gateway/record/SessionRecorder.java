package dev.switchboard.gateway.record;

import dev.switchboard.backend.connection.BackendConnections;
import dev.switchboard.gateway.GatewayBackend;
import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.SessionLedger;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Records client sessions and the backend sessions they use, for operators ({@code GET /api/gateway/sessions}) and
 * so a Streamable HTTP session outlives a restart. Recording never fails a client's request: a database that does
 * not answer costs the record (logged), not the call.
 */
@ApplicationScoped
public class SessionRecorder implements SessionLedger {

    private static final Logger LOG = Logger.getLogger(SessionRecorder.class.getName());
    /** Sessions of this transport can be taken up again after a restart; a socket's session ends with the socket. */
    public static final String STREAMABLE_HTTP = "streamable_http";
    public static final String WEBSOCKET = "websocket";
    public static final String LEGACY_SSE = "legacy_sse";

    @Inject
    SessionRecords records;

    @Inject
    BackendConnections connections;

    /**
     * A session that completed {@code initialize}.
     *
     * @param initializeParams the client's {@code initialize} params (client info and capabilities are kept)
     * @param backends         the backends the session was opened with; {@code initialize} asked each of them
     */
    public void opened(GatewaySession session, String tenant, String transport, String protocolVersion,
                       JsonObject initializeParams, List<GatewayBackend> backends) {
        JsonObject clientInfo = initializeParams.get("clientInfo") instanceof JsonObject info ? info : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject capabilities = initializeParams.get("capabilities") instanceof JsonObject c ? c : JsonValue.EMPTY_JSON_OBJECT;
        long now = System.currentTimeMillis();
        RecordedSession row = new RecordedSession(session.id(), tenant, session.subject(), session.endpoint(), transport,
                protocolVersion, text(clientInfo, "name"), text(clientInfo, "version"), capabilities.toString(), now);
        List<BackendObservation> observed = backends.stream()
                .map(b -> BackendObservation.of(connections.pool(), session.subject(), b.serverId(), b.name())).toList();
        guarded("record session", () -> records.opened(row, observed, now));
    }

    @Override
    public void seen(GatewaySession session, Instant at) {
        guarded("record session use", () -> records.seen(session.id(), at.toEpochMilli()));
    }

    @Override
    public void ended(GatewaySession session, EndReason reason) {
        guarded("record session end", () -> {
            Optional<RecordedSession> row = records.find(session.id());
            if (row.isPresent()) {
                records.ended(session.id(), reason.name().toLowerCase(), observed(session, row.get()), System.currentTimeMillis());
            }
        });
    }

    /** A database that does not answer ends the session here as before: there is no telling whether it is busy elsewhere. */
    @Override
    public boolean endedIdle(GatewaySession session, Instant idleSince) {
        try {
            Optional<RecordedSession> row = records.find(session.id());
            return row.isEmpty() || records.endedIdle(session.id(), idleSince.toEpochMilli(), observed(session, row.get()),
                    System.currentTimeMillis());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not record session end; the session goes on unrecorded", e);
            return true;
        }
    }

    /** How the session's backend sessions stand now, in this instance's pool. */
    private List<BackendObservation> observed(GatewaySession session, RecordedSession row) {
        return records.backendsOf(row.getId()).stream()
                .map(b -> BackendObservation.of(connections.pool(), session.subject(), b.getServerId(), b.getServerName()))
                .toList();
    }

    @Override
    public Optional<Resumable> resumable(String sessionId) {
        try {
            return records.find(sessionId)
                    .filter(s -> s.getEndedAt() == null && STREAMABLE_HTTP.equals(s.getTransport()))
                    .map(s -> new Resumable(s.getSubject(), s.getEndpoint(), s.getProtocolVersion(), parse(s.getClientCapabilities()),
                            Instant.ofEpochMilli(s.getLastSeenAt())));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not read recorded session; answering it as unknown", e);
            return Optional.empty();
        }
    }

    private static void guarded(String what, Runnable write) {
        try {
            write.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not " + what + "; the session goes on unrecorded", e);
        }
    }

    private static String text(JsonObject object, String key) {
        return object.get(key) instanceof JsonString s ? s.getString() : null;
    }

    private static JsonObject parse(String json) {
        try (var reader = JSON.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
