package dev.switchboard.gateway;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live client sessions. Ids are 32 random bytes, unguessable; a session answers only to the subject that
 * created it, so a leaked id is useless to anyone else. Sessions unused for the idle timeout are ended. Every session
 * is also kept in a {@link SessionLedger}: one that is not in memory (the process restarted) but recorded as open is
 * taken up again, and one recorded as ended stays unknown.
 */
public final class GatewaySessions {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** The endpoint of the aggregated sessions. */
    public static final String AGGREGATED = "/mcp";

    /** How often a session's use is written to the ledger: recording every request would cost a write each. */
    public static final Duration SEEN_INTERVAL = Duration.ofSeconds(30);

    private final Map<String, GatewaySession> sessions = new ConcurrentHashMap<>();
    private final Duration idleTimeout;
    private final Clock clock;
    private final SessionLedger ledger;

    public GatewaySessions(Duration idleTimeout, Clock clock) {
        this(idleTimeout, clock, SessionLedger.NONE);
    }

    public GatewaySessions(Duration idleTimeout, Clock clock, SessionLedger ledger) {
        this.idleTimeout = idleTimeout;
        this.clock = clock;
        this.ledger = ledger;
    }

    /** A session of the aggregated endpoint. */
    public GatewaySession create(String subject) {
        return create(subject, AGGREGATED);
    }

    /** A session that answers at one endpoint only (a session of one backend's passthrough is no key to the others). */
    public GatewaySession create(String subject, String endpoint) {
        endIdle();
        GatewaySession session = new GatewaySession(newId(), subject, endpoint, clock.instant());
        sessions.put(session.id(), session);
        return session;
    }

    /** The caller's live session with this id; empty for unknown, ended, expired or someone else's. */
    public Optional<GatewaySession> find(String id, String subject) {
        GatewaySession session = id == null ? null : sessions.computeIfAbsent(id, this::takeUp);
        if (session == null || !session.subject().equals(subject)) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (session.lastUsedAt().plus(idleTimeout).isBefore(now)) {
            end(session, SessionLedger.EndReason.IDLE);
            return Optional.empty();
        }
        session.touch(now);
        if (session.recordedBefore(now.minus(SEEN_INTERVAL))) {
            session.recorded(now);
            ledger.seen(session);
        }
        return Optional.of(session);
    }

    /** A session this process does not hold but the ledger knows as open: served again, under the same id. */
    private GatewaySession takeUp(String id) {
        return ledger.resumable(id).map(recorded -> {
            GatewaySession session = new GatewaySession(id, recorded.subject(), recorded.endpoint(), recorded.lastSeenAt());
            session.clientRequests().clientCapabilities(recorded.clientCapabilities());
            session.negotiated(recorded.protocolVersion());
            return session;
        }).orElse(null);
    }

    /** Ends the caller's session because the client asked; false when there is no such live session. */
    public boolean end(String id, String subject) {
        return end(id, subject, SessionLedger.EndReason.DELETED);
    }

    /** Ends the caller's session; false when there is no such live session. */
    public boolean end(String id, String subject, SessionLedger.EndReason reason) {
        Optional<GatewaySession> session = find(id, subject);
        session.ifPresent(s -> end(s, reason));
        return session.isPresent();
    }

    /** Whether this process serves the session now (without taking it up from the ledger). */
    public boolean holds(String id) {
        return sessions.containsKey(id);
    }

    /** The live sessions of one caller. */
    public List<GatewaySession> ofSubject(String subject) {
        return sessions.values().stream().filter(s -> s.subject().equals(subject)).toList();
    }

    /** Ends every session at shutdown; the ledger keeps them open, to be taken up after the restart. */
    public void endAll() {
        List.copyOf(sessions.values()).forEach(s -> end(s, SessionLedger.EndReason.SHUTDOWN));
    }

    /** Ends sessions idle past the timeout; cheap enough to run on every new session. */
    public void endIdle() {
        Instant cutoff = clock.instant().minus(idleTimeout);
        for (GatewaySession session : List.copyOf(sessions.values())) {
            if (session.lastUsedAt().isBefore(cutoff)) {
                end(session, SessionLedger.EndReason.IDLE);
            }
        }
    }

    private void end(GatewaySession session, SessionLedger.EndReason reason) {
        // recorded first: once it is out of memory, a request for it must find it ended, not take it up again
        if (reason != SessionLedger.EndReason.SHUTDOWN && sessions.get(session.id()) == session) {
            ledger.ended(session, reason);
        }
        if (sessions.remove(session.id(), session)) {
            session.end();
        }
    }

    private static String newId() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
