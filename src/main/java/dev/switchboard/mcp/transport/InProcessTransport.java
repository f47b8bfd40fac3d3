package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** The client side of a connection to an {@link InProcessServer}: delivery is a method call, so it cannot time out. */
public final class InProcessTransport implements McpTransport {

    private final InProcessServer server;
    private final Executor executor;
    private volatile InProcessServer.Session session;
    private volatile boolean closed;

    public InProcessTransport(InProcessServer server, Executor executor) {
        this.server = server;
        this.executor = executor;
    }

    @Override
    public void start(Listener listener, Duration timeout) {
        session = server.connect(message -> {
            if (!closed) {
                listener.onMessage(message);
            }
        }, executor);
    }

    @Override
    public CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout) {
        InProcessServer.Session open = session;
        if (closed || open == null) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.CLOSED, "in-process server connection is closed"));
        }
        try {
            open.receive(message);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.PROTOCOL,
                    "in-process server refused a message: " + e.getMessage(), e));
        }
    }

    @Override
    public void close() {
        closed = true;
        InProcessServer.Session open = session;
        if (open != null) {
            open.close();
        }
    }
}
