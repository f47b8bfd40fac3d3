package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcMessage;

import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * An MCP server that lives in this JVM, reached through {@link InProcessTransport}: messages are handed over as
 * objects, with no socket, process or token in between.
 */
public interface InProcessServer {

    /** One client connection to the server. */
    interface Session {

        /** Takes one message from the client; never blocks on the work it starts and never throws. */
        void receive(JsonRpcMessage message);

        /** Ends the connection: answers still being worked out are dropped. Idempotent. */
        void close();
    }

    /**
     * Opens a connection.
     *
     * @param toClient receives every message the server sends, on the thread that produced it
     * @param executor runs the requests the server works on
     */
    Session connect(Consumer<JsonRpcMessage> toClient, Executor executor);
}
