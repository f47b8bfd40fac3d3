package dev.switchboard.sql.dialect;

import dev.switchboard.sql.service.QueryServiceTest;
import dev.switchboard.sql.session.SessionStore;
import dev.switchboard.testing.MutableClock;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances' sweepers on one database: each expires only the sessions its own connections watch (and those nobody
 * watches), and the instance holding the connections is the one that sends them {@code session.expired}; a session
 * whose instance is gone is removed by another once its expiry is a minute past.
 */
class SessionWatchTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void eachInstanceExpiresWhatItWatchesAndTellsItsOwnConnections() throws Exception {
        DataSource db = QueryServiceTest.sessionDatabase();
        SessionStore storeA = new SessionStore(db, SessionStore.DEFAULT_TTL, clock);
        SessionStore storeB = new SessionStore(db, SessionStore.DEFAULT_TTL, clock);
        SessionWatch a = new SessionWatch(storeA);
        SessionWatch b = new SessionWatch(storeB);
        SessionWatch gone = new SessionWatch(new SessionStore(db, SessionStore.DEFAULT_TTL, clock));
        RecordingChannel onA = new RecordingChannel();
        RecordingChannel onB = new RecordingChannel();

        String watchedOnA = storeA.create("eve").id();
        a.watch(onA, watchedOnA);
        String movedToB = storeA.create("eve").id();
        a.watch(onA, movedToB);
        b.watch(onB, movedToB); // used last through a connection to B: B watches it now
        String unwatched = storeA.create("eve").id(); // used through the MCP tools only
        String ofAGoneInstance = storeA.create("eve").id();
        gone.watch(new RecordingChannel(), ofAGoneInstance);

        clock.advance(Duration.ofMinutes(60).plusSeconds(10));
        a.sweep();
        assertEquals(List.of(watchedOnA), expiredIn(onA), "A announces what it watches");
        assertTrue(storeA.find(movedToB).isPresent(), "B's session is left to B");
        assertTrue(storeA.find(unwatched).isEmpty(), "a session nobody watches goes at once");
        assertTrue(storeA.find(ofAGoneInstance).isPresent(), "another instance's session is left to it for a while");

        b.sweep();
        assertEquals(List.of(movedToB), expiredIn(onB), "B announces it to its own connection");
        assertTrue(storeA.find(movedToB).isEmpty());

        clock.advance(Duration.ofMinutes(1));
        a.sweep();
        assertTrue(storeA.find(ofAGoneInstance).isEmpty(), "its instance never swept: removed once its expiry is long past");
        assertEquals(List.of(watchedOnA), expiredIn(onA), "and announced to nobody here");
    }

    @Test
    void aSessionUsedAgainBeforeTheSweepStays() throws Exception {
        DataSource db = QueryServiceTest.sessionDatabase();
        SessionStore store = new SessionStore(db, SessionStore.DEFAULT_TTL, clock);
        SessionWatch watch = new SessionWatch(store);
        RecordingChannel channel = new RecordingChannel();
        String id = store.create("eve").id();
        watch.watch(channel, id);
        clock.advance(Duration.ofMinutes(59));
        store.touch(id, "eve");
        clock.advance(Duration.ofMinutes(59));
        watch.sweep();
        assertTrue(store.find(id).isPresent());
        assertTrue(expiredIn(channel).isEmpty());
    }

    private static List<String> expiredIn(RecordingChannel channel) {
        return channel.sent.stream().filter(m -> "session.expired".equals(m.getString("method", "")))
                .map(m -> m.getJsonObject("params")).map(p -> ((JsonObject) p).getString("session_id")).toList();
    }
}
