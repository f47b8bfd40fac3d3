package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.GatewaySessions;
import dev.switchboard.gateway.StreamReplay;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which streams a session keeps for resumption, and the event ids that name them. */
class SessionStreamsTest {

    private final GatewaySession session = new GatewaySessions(Duration.ofMinutes(5), Clock.systemUTC()).create("alice");

    @Test
    void finishedRequestStreamsBeyondTheLimitGoOldestFirstWhileRunningOnesStay() {
        SessionStreams streams = new SessionStreams(session, new StreamReplay(10, 2, Duration.ofSeconds(1)));
        ResumableStream running = streams.newRequestStream();
        ResumableStream first = streams.newRequestStream();
        first.finish();
        ResumableStream second = streams.newRequestStream();
        second.finish();
        ResumableStream third = streams.newRequestStream();
        third.finish();
        streams.newRequestStream();
        assertTrue(streams.find(running.number()).isPresent(), "a running stream still has its response to come");
        assertEquals(Optional.empty(), streams.find(first.number()));
        assertEquals(Optional.empty(), streams.find(second.number()));
        assertTrue(streams.find(third.number()).isPresent());
    }

    @Test
    void eventsAreNumberedPerStreamAndNothingFollowsTheEnd() {
        SessionStreams streams = new SessionStreams(session, new StreamReplay(10, 2, Duration.ofSeconds(1)));
        ResumableStream stream = streams.newRequestStream();
        stream.send(JsonRpcMessage.notification("notifications/progress", JsonValue.EMPTY_JSON_OBJECT));
        stream.send(JsonRpcMessage.notification("notifications/progress", JsonValue.EMPTY_JSON_OBJECT));
        assertEquals(2, stream.lastSequence());
        stream.finish();
        stream.send(JsonRpcMessage.notification("notifications/progress", JsonValue.EMPTY_JSON_OBJECT));
        assertEquals(2, stream.lastSequence());
        assertEquals(0, streams.serverStream().number());
        assertTrue(session.hasStreams(), "the GET stream takes the session's messages from its first GET on");
    }

    @Test
    void onlyTheGatewaysEventIdsParse() {
        assertEquals(Optional.of(new SseEventId(3, 17)), SseEventId.parse("3-17"));
        assertEquals("0-5", new SseEventId(0, 5).toString());
        assertFalse(SseEventId.parse("yesterday").isPresent());
        assertFalse(SseEventId.parse("3-").isPresent());
        assertFalse(SseEventId.parse("-1-2").isPresent());
        assertFalse(SseEventId.parse(null).isPresent());
        assertFalse(SseEventId.parse("99999999999-1").isPresent(), "a stream number past int range is no id of ours");
    }
}
