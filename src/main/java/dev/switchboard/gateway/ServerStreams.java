package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;

/**
 * The GET streams of Streamable HTTP sessions that are not among a session's own consumers
 * ({@link GatewaySession#addStream}) because every member of a cluster appends to them: a message a member sends to a
 * session, or to every session of a caller, reaches the session's GET stream wherever it was opened and whichever
 * member holds the session. On a single instance there are none ({@link #NONE}): the GET stream is one of the
 * session's own consumers.
 */
public interface ServerStreams {

    /** Whether the session has such a GET stream (one was opened on any member and the session has not ended). */
    boolean has(String sessionId);

    /** Appends the message to the session's GET stream, if it has one. */
    void send(String sessionId, JsonRpcMessage message);

    /** Appends the message to the GET stream of every session of {@code subject} that has one. */
    void sendToSubject(String subject, JsonRpcMessage message);

    /** The session ended for good (not only this process's copy of it): its streams go. */
    void ended(String sessionId);

    ServerStreams NONE = new ServerStreams() {
        @Override
        public boolean has(String sessionId) {
            return false;
        }

        @Override
        public void send(String sessionId, JsonRpcMessage message) {
            // a single instance keeps its GET streams among the sessions' own consumers
        }

        @Override
        public void sendToSubject(String subject, JsonRpcMessage message) {
            // likewise
        }

        @Override
        public void ended(String sessionId) {
            // likewise
        }
    };
}
