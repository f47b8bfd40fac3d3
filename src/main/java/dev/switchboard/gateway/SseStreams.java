package dev.switchboard.gateway;

import java.util.Optional;

/**
 * Where the resumable SSE streams of Streamable HTTP sessions are numbered and kept: in this instance's memory (the
 * gateway's own, {@code gateway.http}), or, in a cluster, where every member reads and appends to them
 * ({@link SharedSseStreams}).
 */
public interface SseStreams {

    StreamReplay limits();

    /**
     * The session's GET stream, made on first use: from then on the session's server-initiated messages are numbered
     * and kept on it even while no connection is open.
     */
    SseStream serverStream(GatewaySession session);

    /** A new stream for one request's SSE answer; its number is unique in the session. */
    SseStream newRequestStream(GatewaySession session);

    /** The session's stream with this number, if it is kept. */
    Optional<SseStream> find(GatewaySession session, int number);
}
