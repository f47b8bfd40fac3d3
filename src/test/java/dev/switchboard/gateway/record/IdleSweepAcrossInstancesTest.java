package dev.switchboard.gateway.record;

import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.GatewaySessions;
import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.testing.MutableClock;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances (A and B) of the gateway's sessions on one database, each with its own memory: a session opened on A
 * and then used only through B looks idle on A, yet A's sweep does not end it (the database has B's recent use), a
 * request that lands on A again is served, and a session idle on both is ended by whichever sweeps first, after which
 * neither serves it.
 */
class IdleSweepAcrossInstancesTest {

    private static final Duration IDLE = Duration.ofMinutes(30);

    /** The recorder's rows in transactions of the test database's own (the server's are container-managed). */
    static final class TestRecords extends SessionRecords {
        private final TestDatabase db;
        private boolean inTransaction;

        TestRecords(TestDatabase db) {
            this.db = db;
        }

        private <T> T tx(Supplier<T> work) {
            if (inTransaction) {
                return work.get();
            }
            return db.inTransaction(em -> {
                this.em = em;
                inTransaction = true;
                try {
                    return work.get();
                } finally {
                    inTransaction = false;
                }
            });
        }

        @Override
        public void opened(RecordedSession session, List<BackendObservation> backends, long now) {
            tx(() -> {
                super.opened(session, backends, now);
                return null;
            });
        }

        @Override
        public void seen(String sessionId, long now) {
            tx(() -> {
                super.seen(sessionId, now);
                return null;
            });
        }

        @Override
        public boolean endedIdle(String sessionId, long idleSince, List<BackendObservation> backends, long now) {
            return tx(() -> super.endedIdle(sessionId, idleSince, backends, now));
        }

        @Override
        public Optional<RecordedSession> find(String sessionId) {
            return tx(() -> super.find(sessionId));
        }

        @Override
        public List<RecordedBackendSession> backendsOf(long gatewaySessionId) {
            return tx(() -> super.backendsOf(gatewaySessionId));
        }
    }

    private static SessionRecorder recorder(TestDatabase db) {
        SessionRecorder recorder = new SessionRecorder();
        recorder.records = new TestRecords(db);
        return recorder;
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aSweepOnOneInstanceCannotEndASessionBusyOnTheOther(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            MutableClock clock = new MutableClock(Instant.now());
            SessionRecorder onA = recorder(db);
            GatewaySessions a = new GatewaySessions(IDLE, clock, onA);
            GatewaySessions b = new GatewaySessions(IDLE, clock, recorder(db));
            GatewaySession opened = a.create("alice");
            onA.opened(opened, "default", SessionRecorder.STREAMABLE_HTTP, "2025-11-25", JsonValue.EMPTY_JSON_OBJECT, List.of());
            String id = opened.id();

            for (int minute = 0; minute < 40; minute += 5) { // used through B only, for 40 minutes
                clock.advance(Duration.ofMinutes(5));
                assertTrue(b.find(id, "alice").isPresent(), "served on B at minute " + minute);
            }
            a.endIdle(); // A's copy was last used 40 minutes ago
            assertFalse(a.holds(id), "A's stale copy is dropped");
            assertNull(endedAt(db, id), "but the session is not ended: B used it within the idle timeout");
            assertTrue(b.find(id, "alice").isPresent(), "B goes on serving it");
            assertTrue(a.find(id, "alice").isPresent(), "a request landing on A again is served, taken up from the database");

            clock.advance(Duration.ofMinutes(31)); // now idle everywhere
            a.endIdle();
            assertEquals("idle", endReason(db, id));
            assertTrue(b.find(id, "alice").isEmpty(), "B does not serve a session that ended");
            assertTrue(a.find(id, "alice").isEmpty());
        }
    }

    private static Long endedAt(TestDatabase db, String id) {
        return db.inTransaction(em -> row(em, id).getEndedAt());
    }

    private static String endReason(TestDatabase db, String id) {
        return db.inTransaction(em -> row(em, id).getEndReason());
    }

    /** The row as it is in the database, read outside either instance. */
    private static RecordedSession row(EntityManager em, String id) {
        return em.createQuery("select s from RecordedSession s where s.sessionId = :id", RecordedSession.class)
                .setParameter("id", id).getSingleResult();
    }
}
