package dev.switchboard.gateway;

import dev.switchboard.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Client sessions: ids, ownership, expiry, cancellation of what is in flight. */
class GatewaySessionsTest {

    private final MutableClock clock = new MutableClock(java.time.Instant.parse("2026-01-01T00:00:00Z"));
    private final GatewaySessions sessions = new GatewaySessions(Duration.ofMinutes(30), clock);

    @Test
    void idsAreLongRandomAndAnswerOnlyToTheirOwner() {
        GatewaySession a = sessions.create("alice");
        GatewaySession b = sessions.create("alice");
        assertNotEquals(a.id(), b.id());
        assertTrue(a.id().matches("[A-Za-z0-9_-]{43}"), a.id());
        assertTrue(sessions.find(a.id(), "alice").isPresent());
        assertTrue(sessions.find(a.id(), "mallory").isEmpty());
        assertFalse(sessions.end(a.id(), "mallory"));
        assertTrue(sessions.find("nope", "alice").isEmpty());
    }

    @Test
    void endingASessionCancelsItsRequestsAndClosesItsStreams() {
        GatewaySession session = sessions.create("alice");
        List<String> events = new ArrayList<>();
        session.track("1", () -> events.add("cancel 1"));
        session.track("2", () -> events.add("cancel 2"));
        session.onEnd(() -> events.add("stream closed"));
        assertTrue(session.cancel("1"));
        assertFalse(session.cancel("1"), "a request is cancelled once");
        assertTrue(sessions.end(session.id(), "alice"));
        assertEquals(List.of("cancel 1", "cancel 2", "stream closed"), events);
        assertTrue(session.isEnded());
        assertTrue(sessions.find(session.id(), "alice").isEmpty());
    }

    @Test
    void idleSessionsExpire() {
        GatewaySession idle = sessions.create("alice");
        clock.advance(Duration.ofMinutes(20));
        GatewaySession busy = sessions.create("alice");
        clock.advance(Duration.ofMinutes(15));
        assertTrue(sessions.find(busy.id(), "alice").isPresent());
        assertTrue(sessions.find(idle.id(), "alice").isEmpty());
        assertTrue(idle.isEnded());
    }
}
