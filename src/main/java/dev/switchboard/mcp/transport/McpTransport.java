package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Moves JSON-RPC messages to and from one MCP peer. Knows nothing about request correlation;
 * that is {@link dev.switchboard.mcp.JsonRpcPeer}'s job.
 */
public interface McpTransport {

    /** Receives what the peer sends. Called from the transport's reader threads. */
    interface Listener {

        void onMessage(JsonRpcMessage message);

        /**
         * A message that arrived on the answer channel of one of our requests (a POST's SSE stream), so it belongs to
         * serving that request; {@code relatedIdKey} is that request's id as JSON text.
         */
        default void onMessage(JsonRpcMessage message, String relatedIdKey) {
            onMessage(message);
        }

        /** The connection is gone (process exited, stream broke, session expired). Called at most once per cause. */
        void onClosed(McpException cause);
    }

    /** Opens the connection (starts the process, opens the SSE stream) within the timeout. */
    void start(Listener listener, Duration timeout) throws McpException;

    /**
     * Sends one message. The future fails with an {@link McpException} when the message could not be
     * delivered, or, for a request, when the response channel tied to it ended without the response.
     *
     * @param timeout how long delivery may take (for HTTP: until the response headers arrive)
     */
    CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout);

    /**
     * As {@link #send(JsonRpcMessage, Duration)}, for a request whose {@code answer} the transport may watch: when it
     * fails first (deadline, cancellation, connection closed) the exchange carrying the request is stopped. With
     * {@code callerWaits} the caller blocks until the answer is there anyway, so a transport may run the whole exchange
     * on the calling thread (HTTP: the POST and reading its answer stream) and return a completed future; such a
     * transport also stops when the calling thread is interrupted.
     */
    default CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout, CompletableFuture<?> answer,
                                         boolean callerWaits) {
        return send(message, timeout);
    }

    /** Called once the handshake chose a protocol version; HTTP transports start sending it as a header. */
    default void initialized(String protocolVersion) {
    }

    /** The session id the server gave this connection (Streamable HTTP's {@code Mcp-Session-Id}), or null. */
    default String sessionId() {
        return null;
    }

    /** Closes the connection; idempotent, never throws, bounded in time. */
    void close();
}
