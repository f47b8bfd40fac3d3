package dev.switchboard.cluster;

import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.GatewaySessions;
import dev.switchboard.gateway.SseStream;
import dev.switchboard.gateway.StreamReplay;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code /mcp} streams two real Hazelcast members share: numbering, replay after a cut, the newest connection
 * taking a stream over, the answered streams kept and the end of a session, each seen from both members.
 */
class HazelcastSseStreamsTest {

    private static final StreamReplay LIMITS = new StreamReplay(4, 2, Duration.ofSeconds(1));
    private static TwoMembers members;
    private static ExecutorService executor;
    private static HazelcastSseStreams one;
    private static HazelcastSseStreams two;

    private final GatewaySessions sessions = new GatewaySessions(Duration.ofMinutes(5), Clock.systemUTC());

    @BeforeAll
    static void start() throws Exception {
        members = TwoMembers.start(new StreamLimits(LIMITS.eventsPerStream(), Duration.ofMinutes(5), 8, Duration.ofMinutes(5)));
        executor = Executors.newCachedThreadPool();
        one = new HazelcastSseStreams(members.one, LIMITS, executor);
        two = new HazelcastSseStreams(members.two, LIMITS, executor);
    }

    @AfterAll
    static void stop() {
        members.close();
        executor.shutdownNow();
    }

    @Test
    void aMessageSentToACallerOnOneMemberReachesTheGetStreamOpenedOnTheOther() throws Exception {
        GatewaySession session = sessions.create("alice");
        RecordingSink connection = new RecordingSink();
        two.serverStream(session).attachFresh(connection, Duration.ofMillis(1500));
        assertEquals("id: 0-0\nretry: 1500\ndata: \n\n", connection.written().get(0), "the priming event: its position, no data");
        assertTrue(one.has(session.id()), "member one knows the session has a GET stream");

        one.sendToSubject("alice", progress(1));
        one.sendToSubject("somebody-else", progress(2));
        one.send(session.id(), progress(3));
        connection.await(c -> c.written().size() == 3);
        assertEquals(List.of("0-0", "0-1", "0-2"), connection.ids());
        assertTrue(connection.written().get(1).contains("\"progress\":1"), connection.written()::toString);
        assertTrue(connection.written().get(2).contains("\"progress\":3"), connection.written()::toString);
    }

    @Test
    void aRequestStreamCutOnOneMemberResumesOnTheOtherWithEveryEventOnce() throws Exception {
        GatewaySession session = sessions.create("bob");
        SseStream onOne = one.newRequestStream(session);
        RecordingSink cut = new RecordingSink(2);
        onOne.attachFresh(cut, Duration.ofSeconds(1));
        onOne.send(progress(1));
        cut.await(c -> c.written().size() == 2);
        for (int step = 2; step <= 4; step++) {
            onOne.send(progress(step));
        }
        cut.await(RecordingSink::closed);
        String lastSeen = cut.ids().get(1);
        onOne.send(JsonRpcMessage.result(Json.createValue(7), Json.createObjectBuilder().add("done", true).build()));
        onOne.finish();

        Optional<SseStream> onTwo = two.find(session, onOne.number());
        assertTrue(onTwo.isPresent(), "member two finds the stream member one numbered");
        RecordingSink resumed = new RecordingSink();
        long lost = onTwo.get().attachAfter(resumed, Long.parseLong(lastSeen.substring(lastSeen.indexOf('-') + 1)));
        resumed.await(RecordingSink::closed);
        assertEquals(0, lost);
        List<String> frames = resumed.written();
        assertEquals(4, frames.size(), frames::toString);
        for (int i = 0; i < 3; i++) {
            assertTrue(frames.get(i).contains("\"progress\":" + (i + 2)), frames::toString);
        }
        assertTrue(frames.get(3).contains("\"done\":true"), frames::toString);
        List<Long> sequences = resumed.ids().stream().map(id -> Long.parseLong(id.substring(id.indexOf('-') + 1))).toList();
        assertEquals(sequences.stream().sorted().distinct().toList(), sequences, "ids grow along the stream");
        assertTrue(sequences.get(0) > Long.parseLong(lastSeen.substring(lastSeen.indexOf('-') + 1)));
    }

    @Test
    void aNewerConnectionTakesTheStreamOverAndTheOlderEnds() throws Exception {
        GatewaySession session = sessions.create("carol");
        RecordingSink older = new RecordingSink();
        one.serverStream(session).attachFresh(older, Duration.ofSeconds(1));
        RecordingSink newer = new RecordingSink();
        two.serverStream(session).attachFresh(newer, Duration.ofSeconds(1));
        older.await(RecordingSink::closed);
        one.send(session.id(), progress(9));
        newer.await(c -> c.written().size() == 2);
        assertEquals(1, older.written().size(), "the older connection got its priming event only");
        assertFalse(newer.closed());
    }

    @Test
    void numbersAreUniqueAcrossMembersAndAnsweredStreamsBeyondTheLimitGo() {
        GatewaySession session = sessions.create("dave");
        SseStream first = one.newRequestStream(session);
        SseStream second = two.newRequestStream(session);
        SseStream third = one.newRequestStream(session);
        SseStream running = two.newRequestStream(session);
        assertEquals(List.of(1, 2, 3, 4), List.of(first.number(), second.number(), third.number(), running.number()));
        first.finish();
        second.finish();
        third.finish();
        assertEquals(Optional.empty(), two.find(session, first.number()), "the oldest answered stream beyond 2 went");
        assertTrue(two.find(session, second.number()).isPresent());
        assertTrue(one.find(session, third.number()).isPresent());
        assertTrue(one.find(session, running.number()).isPresent(), "a running stream is always kept");
        assertEquals(Optional.empty(), one.find(session, 0), "no GET stream was opened");
        assertEquals(Optional.empty(), one.find(session, 5), "never given out");
    }

    @Test
    void theEndOfASessionEndsItsConnectionsOnEveryMemberAndDropsItsRings() throws Exception {
        GatewaySession session = sessions.create("erin");
        RecordingSink connection = new RecordingSink();
        two.serverStream(session).attachFresh(connection, Duration.ofSeconds(1));
        SseStream request = two.newRequestStream(session);
        request.send(progress(1));
        one.ended(session.id());
        connection.await(RecordingSink::closed);
        assertFalse(two.has(session.id()));
        assertEquals(Optional.empty(), two.find(session, request.number()));
        assertEquals(List.of(), two.kept(session.id()));
        assertTrue(members.one.getDistributedObjects().stream().noneMatch(o -> o.getName().contains(session.id())),
                "no ring of the session is left");
        one.sendToSubject("erin", progress(2));
        assertTrue(members.one.getDistributedObjects().stream().noneMatch(o -> o.getName().contains(session.id())),
                "a message for the caller makes no ring again");
    }

    @Test
    void resumingAfterOverwrittenEventsReplaysWhatIsKeptAndCountsTheRest() throws Exception {
        GatewaySession session = sessions.create("frank");
        SseStream stream = one.newRequestStream(session);
        int capacity = LIMITS.eventsPerStream() + MemberConfig.SSE_MARKERS;
        for (int step = 1; step <= capacity + 10; step++) {
            stream.send(progress(step));
        }
        stream.finish();
        RecordingSink late = new RecordingSink();
        long lost = two.find(session, stream.number()).orElseThrow().attachAfter(late, 0);
        late.await(RecordingSink::closed);
        // the client had step 1 (sequence 0); the ring's places went to the newest events, the end and the marker of
        // the resuming connection, which overwrote steps 2..12
        assertEquals(11, lost);
        assertEquals(capacity - 2, late.written().size(), late.written()::toString);
        assertTrue(late.written().get(0).contains("\"progress\":13}"), late.written()::toString);
        assertTrue(late.written().get(late.written().size() - 1).contains("\"progress\":" + (capacity + 10)));
    }

    private static JsonRpcMessage progress(int step) {
        return JsonRpcMessage.notification("notifications/progress", Json.createObjectBuilder()
                .add("progressToken", "p").add("progress", step).build());
    }
}
