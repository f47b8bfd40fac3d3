package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Serves one client request on a worker thread and can be cancelled from another: before it starts, the exchange is
 * closed at once; while it runs, the worker is interrupted, which makes the backend client send
 * {@code notifications/cancelled} to the backend working on it and return.
 */
public final class ClientCall implements Runnable, GatewaySession.InFlight {

    private static final Logger LOG = Logger.getLogger(ClientCall.class.getName());

    private final JsonRpcMessage request;
    private final McpRouter router;
    private final ClientReply reply;
    private final Consumer<ClientCall> whenDone;
    private final ServerRequestHandler clientRequests;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private volatile boolean cancelled;
    // guarded by this
    private Thread runner;

    public ClientCall(JsonRpcMessage request, McpRouter router, ClientReply reply,
                        ServerRequestHandler clientRequests, Consumer<ClientCall> whenDone) {
        this.request = request;
        this.clientRequests = clientRequests;
        this.router = router;
        this.reply = reply;
        this.whenDone = whenDone;
    }

    @Override
    public void run() {
        if (!claimed.compareAndSet(false, true)) {
            return;
        }
        synchronized (this) {
            runner = Thread.currentThread();
        }
        try {
            if (cancelled) {
                finishCancelled();
                return;
            }
            JsonRpcMessage response = router.handle(request, reply.progress(), clientRequests);
            if (cancelled) {
                finishCancelled();
            } else {
                reply.answer(response);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "gateway failed serving " + request.method(), e);
            reply.answer(GatewayErrors.error(request.id(), GatewayErrors.INTERNAL_ERROR, "Internal error", null));
        } finally {
            synchronized (this) {
                runner = null;
                // an interrupt meant for this request must not leak into the pool thread's next task
                Thread.interrupted();
            }
            whenDone.accept(this);
        }
    }

    /** Stops serving the request; idempotent, harmless after the answer went out. */
    @Override
    public void cancel() {
        cancelled = true;
        if (claimed.compareAndSet(false, true)) {
            finishCancelled();
            whenDone.accept(this);
            return;
        }
        synchronized (this) {
            if (runner != null) {
                runner.interrupt();
            }
        }
    }

    private void finishCancelled() {
        reply.cancelled(request);
    }
}
