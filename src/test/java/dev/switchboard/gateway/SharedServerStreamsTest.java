package dev.switchboard.gateway;

import dev.switchboard.backend.pool.BackendNotification;
import dev.switchboard.backend.pool.PoolKey;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.Json;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the sessions and relays hand messages to GET streams a cluster shares ({@link ServerStreams}): a message for
 * all of a caller's sessions reaches the shared streams once for the caller (not once more per session copy held
 * here), a message for one session once, and only a session's real end drops its shared streams.
 */
class SharedServerStreamsTest {

    /** Shared streams that record what they are asked; session "shared" has a GET stream. */
    private static final class Recorded implements ServerStreams {
        final Set<String> withStream = new HashSet<>();
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public boolean has(String sessionId) {
            return withStream.contains(sessionId);
        }

        @Override
        public void send(String sessionId, JsonRpcMessage message) {
            calls.add("send " + sessionId + " " + message.method());
        }

        @Override
        public void sendToSubject(String subject, JsonRpcMessage message) {
            calls.add("subject " + subject + " " + message.method());
        }

        @Override
        public void ended(String sessionId) {
            calls.add("ended " + sessionId);
        }
    }

    private final Recorded shared = new Recorded();
    private final GatewaySessions sessions = new GatewaySessions(Duration.ofMinutes(30), Clock.systemUTC(),
            SessionLedger.NONE, shared);

    @Test
    void aMessageForACallerReachesTheSharedStreamsOnceAndTheSessionsOwnStreams() {
        GatewaySession first = sessions.create("alice");
        sessions.create("alice");
        List<JsonRpcMessage> socket = new ArrayList<>();
        first.addStream(socket::add);

        new ToolsChangedRelay(sessions, new ListenStreams(), shared).accept(new PoolKey("alice", "7"));
        new BackendEventsRelay(sessions, new ResourceSubscriptions(), new ListenStreams(), shared).accept(new BackendNotification(
                new PoolKey("alice", "7"), "notifications/message", Json.createObjectBuilder().add("level", "info").build()));

        assertEquals(List.of("subject alice notifications/tools/list_changed", "subject alice notifications/message"),
                shared.calls, "once for the caller, however many of its sessions are held here");
        assertEquals(List.of("notifications/tools/list_changed", "notifications/message"),
                socket.stream().map(JsonRpcMessage::method).toList(), "a stream of the session's own (a WebSocket)");
    }

    @Test
    void aMessageForOneSessionReachesItsSharedStreamAndASharedStreamCounts() {
        GatewaySession session = sessions.create("bob");
        assertFalse(session.hasStreams());
        shared.withStream.add(session.id());
        assertTrue(session.hasStreams(), "a GET stream opened on another member counts");
        session.sendToStreams(JsonRpcMessage.notification("notifications/resources/updated", null));
        assertEquals(List.of("send " + session.id() + " notifications/resources/updated"), shared.calls);
    }

    @Test
    void onlyARealEndDropsTheSharedStreams() {
        GatewaySession deleted = sessions.create("carol");
        GatewaySession kept = sessions.create("carol");
        assertTrue(sessions.end(deleted.id(), "carol"));
        sessions.endAll();
        assertTrue(kept.isEnded());
        assertEquals(List.of("ended " + deleted.id()), shared.calls, "a shutdown leaves the session to the other members");
    }
}
