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

    /** How often, at most, a session's use is written to the ledger: recording every request would cost a write each. */
    private static final Duration MAX_SEEN_INTERVAL = Duration.ofSeconds(30);

    private final Map<String, GatewaySession> sessions = new ConcurrentHashMap<>();
    private final Duration idleTimeout;
    private final Duration seenInterval;
    private final Clock clock;
    private final SessionLedger ledger;
    private final ServerStreams sharedStreams;
    private final String member;

    public GatewaySessions(Duration idleTimeout, Clock clock) {
        this(idleTimeout, clock, SessionLedger.NONE);
    }

    public GatewaySessions(Duration idleTimeout, Clock clock, SessionLedger ledger) {
        this(idleTimeout, clock, ledger, ServerStreams.NONE, LocalClientMessages.MEMBER);
    }

    /** @param sharedStreams the GET streams the members of a cluster share ({@link ServerStreams#NONE} alone) */
    public GatewaySessions(Duration idleTimeout, Clock clock, SessionLedger ledger, ServerStreams sharedStreams) {
        this(idleTimeout, clock, ledger, sharedStreams, LocalClientMessages.MEMBER);
    }

    /** @param member this instance's name in the ids of requests to clients ({@link ClientMessageRoute#member()}) */
    public GatewaySessions(Duration idleTimeout, Clock clock, SessionLedger ledger, String member) {
        this(idleTimeout, clock, ledger, ServerStreams.NONE, member);
    }

    public GatewaySessions(Duration idleTimeout, Clock clock, SessionLedger ledger, ServerStreams sharedStreams, String member) {
        this.sharedStreams = sharedStreams;
        this.member = member;
        this.idleTimeout = idleTimeout;
        this.seenInterval = seenInterval(idleTimeout);
        this.clock = clock;
        this.ledger = ledger;
    }

    /**
     * How often a session's use is written to the ledger: every 30 s, or a quarter of the idle timeout when that is
     * shorter, so the recorded last use of a session busy on another instance is always well inside the idle timeout
     * (an idle sweep here ends a session only when the ledger's last use is older than that).
     */
    public static Duration seenInterval(Duration idleTimeout) {
        Duration quarter = idleTimeout.dividedBy(4);
        return quarter.compareTo(MAX_SEEN_INTERVAL) < 0 ? quarter : MAX_SEEN_INTERVAL;
    }

    /** A session of the aggregated endpoint. */
    public GatewaySession create(String subject) {
        return create(subject, AGGREGATED);
    }

    /** A session that answers at one endpoint only (a session of one backend's passthrough is no key to the others). */
    public GatewaySession create(String subject, String endpoint) {
        endIdle();
        GatewaySession session = new GatewaySession(newId(), subject, endpoint, clock.instant(), sharedStreams, member);
        sessions.put(session.id(), session);
        return session;
    }

    /**
     * The caller's live session with this id; empty for unknown, ended, expired or someone else's. A copy here that
     * looks idle but whose session was used through another instance meanwhile is replaced by the ledger's.
     */
    public Optional<GatewaySession> find(String id, String subject) {
        GatewaySession session = id == null ? null : sessions.computeIfAbsent(id, this::takeUp);
        if (session == null || !session.subject().equals(subject)) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (idle(session, now)) {
            if (endIdle(session, now)) {
                return Optional.empty();
            }
            session = sessions.computeIfAbsent(id, this::takeUp);
            if (session == null || !session.subject().equals(subject) || idle(session, now)) {
                return Optional.empty();
            }
        }
        session.touch(now);
        if (session.recordedBefore(now.minus(seenInterval))) {
            session.recorded(now);
            ledger.seen(session, now);
        }
        return Optional.of(session);
    }

    /** A session this process does not hold but the ledger knows as open: served again, under the same id. */
    private GatewaySession takeUp(String id) {
        return ledger.resumable(id).map(recorded -> {
            GatewaySession session = new GatewaySession(id, recorded.subject(), recorded.endpoint(), recorded.lastSeenAt(),
                    sharedStreams, member);
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

    /**
     * The caller's session as this process holds it now, live: never taken up from the ledger, idle sweep or use
     * untouched (for what another member hands on to the requests this one is serving).
     */
    public Optional<GatewaySession> held(String id, String subject) {
        GatewaySession session = id == null ? null : sessions.get(id);
        return session == null || session.isEnded() || !session.subject().equals(subject)
                ? Optional.empty() : Optional.of(session);
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
        Instant now = clock.instant();
        for (GatewaySession session : List.copyOf(sessions.values())) {
            if (idle(session, now)) {
                endIdle(session, now);
            }
        }
    }

    private boolean idle(GatewaySession session, Instant now) {
        return session.lastUsedAt().plus(idleTimeout).isBefore(now);
    }

    /**
     * Ends a session that looks idle here, if the ledger agrees (no use recorded within the idle timeout, which
     * another instance serving it would have recorded). Either way this copy goes: when the ledger disagrees the
     * session lives on elsewhere, and a request for it here takes it up again from the ledger.
     *
     * @return whether the session ended
     */
    private boolean endIdle(GatewaySession session, Instant now) {
        if (sessions.get(session.id()) != session) {
            return false;
        }
        boolean ended = ledger.endedIdle(session, now.minus(idleTimeout));
        if (sessions.remove(session.id(), session)) {
            session.end();
        }
        if (ended) {
            sharedStreams.ended(session.id());
        }
        return ended;
    }

    private void end(GatewaySession session, SessionLedger.EndReason reason) {
        // idleness is decided with the ledger (endIdle); every other reason is this caller's or this process's own
        // recorded first: once it is out of memory, a request for it must find it ended, not take it up again
        if (reason != SessionLedger.EndReason.SHUTDOWN && sessions.get(session.id()) == session) {
            ledger.ended(session, reason);
        }
        boolean forGood = reason != SessionLedger.EndReason.SHUTDOWN;
        if (sessions.remove(session.id(), session)) {
            session.end();
            if (forGood) {
                sharedStreams.ended(session.id());
            }
        }
    }

    private static String newId() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
