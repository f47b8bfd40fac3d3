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
 * The live upstream sessions. Ids are 32 random bytes, unguessable; a session answers only to the subject that
 * created it, so a leaked id is useless to anyone else. Sessions unused for the idle timeout are ended.
 */
public final class GatewaySessions {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** The endpoint of the aggregated sessions. */
    public static final String AGGREGATED = "/mcp";

    private final Map<String, GatewaySession> sessions = new ConcurrentHashMap<>();
    private final Duration idleTimeout;
    private final Clock clock;

    public GatewaySessions(Duration idleTimeout, Clock clock) {
        this.idleTimeout = idleTimeout;
        this.clock = clock;
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
        GatewaySession session = id == null ? null : sessions.get(id);
        if (session == null || !session.subject().equals(subject)) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (session.lastUsedAt().plus(idleTimeout).isBefore(now)) {
            end(session);
            return Optional.empty();
        }
        session.touch(now);
        return Optional.of(session);
    }

    /** Ends the caller's session; false when there is no such live session. */
    public boolean end(String id, String subject) {
        Optional<GatewaySession> session = find(id, subject);
        session.ifPresent(this::end);
        return session.isPresent();
    }

    /** The live sessions of one caller. */
    public List<GatewaySession> ofSubject(String subject) {
        return sessions.values().stream().filter(s -> s.subject().equals(subject)).toList();
    }

    /** Ends every session, e.g. at shutdown. */
    public void endAll() {
        List.copyOf(sessions.values()).forEach(this::end);
    }

    /** Ends sessions idle past the timeout; cheap enough to run on every new session. */
    public void endIdle() {
        Instant cutoff = clock.instant().minus(idleTimeout);
        for (GatewaySession session : List.copyOf(sessions.values())) {
            if (session.lastUsedAt().isBefore(cutoff)) {
                end(session);
            }
        }
    }

    private void end(GatewaySession session) {
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
