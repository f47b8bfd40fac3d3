package dev.switchboard.gateway.http;

import dev.switchboard.gateway.EventSink;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One HTTP response carrying SSE text (a POST's answer or a GET). A write that fails closes it; whoever keeps it
 * hears about the close once, through {@link #whenClosed}, whether the client left, the container timed it out or
 * it was ended on purpose.
 */
final class SseConnection implements AsyncListener, EventSink {

    private static final Logger LOG = Logger.getLogger(SseConnection.class.getName());

    private final AsyncContext async;
    private final List<Runnable> closeHooks = new ArrayList<>();
    private boolean closed;

    private SseConnection(AsyncContext async) {
        this.async = async;
    }

    /**
     * Sends the SSE headers at once, so the client sees the stream before the first event. Only GET streams are
     * opened here (a POST's answer travels in its {@code ClientExchange}), so each is kept in {@link OpenStreams} until
     * it closes, for a drain to end it.
     */
    static SseConnection open(AsyncContext async) {
        SseConnection connection = new SseConnection(async);
        async.addListener(connection);
        OpenStreams.keep(connection);
        HttpServletResponse response = (HttpServletResponse) async.getResponse();
        response.setStatus(200);
        response.setContentType("text/event-stream");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-cache");
        try {
            response.flushBuffer();
        } catch (IOException e) {
            connection.closeAfterFailure(e);
        }
        return connection;
    }

    /** Runs {@code hook} once when the connection closes, however it closes (at once if it is closed). */
    @Override
    public void whenClosed(Runnable hook) {
        synchronized (this) {
            if (!closed) {
                closeHooks.add(hook);
                return;
            }
        }
        hook.run();
    }

    /** Writes and flushes; false when the client is gone (the connection is closed then). */
    @Override
    public boolean write(String text) {
        synchronized (this) {
            if (closed) {
                return false;
            }
            try {
                OutputStream out = async.getResponse().getOutputStream();
                out.write(text.getBytes(StandardCharsets.UTF_8));
                out.flush();
                return true;
            } catch (IOException | IllegalStateException e) {
                LOG.log(Level.FINE, "SSE client went away", e);
            }
        }
        end();
        return false;
    }

    /** Tells the client to reconnect after {@code retry} (to whichever member the balancer picks), then ends. */
    void endWithRetry(Duration retry) {
        write("retry: " + retry.toMillis() + "\n\n");
        end();
    }

    /** Ends the response; idempotent. */
    @Override
    public void end() {
        close(true);
    }

    private void closeAfterFailure(IOException e) {
        LOG.log(Level.FINE, "SSE client went away before the stream opened", e);
        end();
    }

    /** Marks the connection closed (completing the response unless the container did) and runs the hooks once. */
    private void close(boolean complete) {
        List<Runnable> hooks;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            hooks = List.copyOf(closeHooks);
            if (complete) {
                try {
                    async.complete();
                } catch (IllegalStateException e) {
                    LOG.log(Level.FINE, "SSE response already completed", e);
                }
            }
        }
        hooks.forEach(Runnable::run);
    }

    @Override
    public void onComplete(AsyncEvent event) {
        close(false);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        end();
    }

    @Override
    public void onError(AsyncEvent event) {
        end();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // a response is started once
    }
}
