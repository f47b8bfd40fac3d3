package dev.switchboard.gateway;

import java.time.Duration;

/**
 * How much of a session's SSE traffic the gateway keeps so a client that lost a connection can resume with
 * {@code Last-Event-ID} (Streamable HTTP 2025-11-25).
 *
 * @param eventsPerStream events kept per stream (the newest; older ones cannot be replayed)
 * @param finishedStreams answered request streams kept per session after their response (the oldest go first)
 * @param retry           the reconnection delay the gateway asks clients for in each stream's first event
 */
public record StreamReplay(int eventsPerStream, int finishedStreams, Duration retry) {

    public StreamReplay {
        if (eventsPerStream < 1 || finishedStreams < 0) {
            throw new IllegalArgumentException("replay limits: at least one event per stream, no negative stream count");
        }
        if (retry.isNegative()) {
            throw new IllegalArgumentException("the SSE retry delay cannot be negative");
        }
    }
}
