package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.UpstreamReply;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;
import jakarta.servlet.AsyncContext;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The answer to one client request, written from a worker thread: either one JSON body, or a resumable SSE stream
 * that carries the request's progress notifications and the backends' requests, then its response. A client that
 * loses the stream's connection resumes it with GET and {@code Last-Event-ID}; the request goes on meanwhile (the
 * spec says a disconnection is not a cancellation) and its events are kept for the resumption.
 */
final class UpstreamExchange implements UpstreamReply {

    private static final Logger LOG = Logger.getLogger(UpstreamExchange.class.getName());

    private final AsyncContext async;
    private final ResumableStream stream;
    private final Object lock = new Object();
    private boolean completed;

    /** @param stream the stream the answer goes on, or null for a JSON answer */
    UpstreamExchange(AsyncContext async, ResumableStream stream) {
        this.async = async;
        this.stream = stream;
    }

    boolean isStream() {
        return stream != null;
    }

    /**
     * Opens the SSE stream right away with its priming event, so the client sees the headers and can resume before
     * a slow backend says anything.
     */
    void open(Duration retry) {
        if (stream != null) {
            stream.attachFresh(SseConnection.open(async), retry);
        }
    }

    /** Progress travels on the SSE stream; a JSON exchange cannot carry it. */
    @Override
    public Consumer<JsonObject> progress() {
        return stream != null ? params -> event(JsonRpcMessage.notification("notifications/progress", params)) : null;
    }

    /**
     * A cancelled request gets no response on a stream (the spec says not to answer it); a JSON exchange still
     * needs a body, so it gets the request-cancelled error, which the client ignores for a request it cancelled.
     */
    @Override
    public void cancelled(JsonRpcMessage request) {
        if (stream != null) {
            complete();
        } else {
            answer(GatewayErrors.error(request.id(), GatewayErrors.REQUEST_CANCELLED, "Request cancelled", null));
        }
    }

    /** A request of the server's own (a backend's sampling, elicitation, roots) on this request's stream. */
    void request(JsonRpcMessage request) {
        event(request);
    }

    /** The response, then the end of the exchange. */
    @Override
    public void answer(JsonRpcMessage response) {
        synchronized (lock) {
            if (completed) {
                return;
            }
            if (stream != null) {
                stream.send(response);
            } else {
                try {
                    HttpReplies.json((jakarta.servlet.http.HttpServletResponse) async.getResponse(), 200, response);
                } catch (IOException e) {
                    LOG.log(Level.FINE, "client went away before its answer", e);
                }
            }
            complete();
        }
    }

    /** Ends the exchange; a stream ends every connection that carries it. */
    void complete() {
        synchronized (lock) {
            if (completed) {
                return;
            }
            completed = true;
            if (stream != null) {
                stream.finish();
            } else {
                async.complete();
            }
        }
    }

    private void event(JsonRpcMessage message) {
        synchronized (lock) {
            if (!completed) {
                stream.send(message);
            }
        }
    }
}
