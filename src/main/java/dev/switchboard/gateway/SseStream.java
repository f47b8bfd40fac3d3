package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;

import java.time.Duration;

/**
 * One resumable SSE stream of a Streamable HTTP session (spec 2025-11-25, resumability): the session's GET stream
 * (number 0) or a request's SSE answer. Every event has an id {@code {number}-{sequence}}; the events are kept so a
 * client that lost its connection resumes with {@code Last-Event-ID}; new events go to the newest connection only, and
 * a finished stream ends its connections once they have what it holds.
 */
public interface SseStream {

    int number();

    /** The sequence of the newest event (0 before the first): a {@code Last-Event-ID} beyond it was never sent. */
    long lastSequence();

    /** Numbers, keeps and delivers one message; nothing after the stream finished. */
    void send(JsonRpcMessage message);

    /**
     * A new connection that starts at the stream's current position: its first event carries that position's id, no
     * data, and the reconnection delay the client should use.
     */
    void attachFresh(EventSink connection, Duration retry);

    /**
     * A connection resuming after event {@code afterSequence}: the kept events after it, then the live ones.
     *
     * @return how many events after {@code afterSequence} are no longer kept and so were not replayed
     */
    long attachAfter(EventSink connection, long afterSequence);

    /** The stream is complete (its request was answered): its connections end; what it kept stays for resumptions. */
    void finish();
}
