package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.ClientReply;
import dev.switchboard.gateway.SseStream;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;
import jakarta.servlet.AsyncContext;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The answer to one client request, written from a worker thread: either one JSON body, or a resumable SSE stream
 * that carries the request's progress notifications and the backends' requests, then its response. A client that
 * loses the stream's connection resumes it with GET and {@code Last-Event-ID}; the request goes on meanwhile (the
 * spec says a disconnection is not a cancellation) and its events are kept for the resumption.
 * <p>
 * When the client accepts both and only might need a stream (a backend may ask it something while serving a call),
 * the stream is opened at the first event; a call answered without one gets a plain JSON body. Most tool calls are
 * answered that way, and a stream per call (async headers, priming event, replay buffer) was a visible share of the
 * gateway's CPU per call (bench/README.md).
 */
final class ClientExchange implements ClientReply {

    /** How the answer travels. */
    enum Mode {
        /** one JSON body; nothing can travel before the response */
        JSON,
        /** an SSE stream opened at once, with its priming event */
        STREAM,
        /** JSON, unless something has to reach the client before the response: then an SSE stream from there on */
        STREAM_WHEN_NEEDED
    }

    private static final Logger LOG = Logger.getLogger(ClientExchange.class.getName());

    private final AsyncContext async;
    private final Mode mode;
    private final Supplier<SseStream> newStream;
    private final Duration retry;
    private final ToIntFunction<JsonRpcMessage> status;
    private final Object lock = new Object();
    // guarded by lock
    private SseStream stream;
    private boolean completed;

    /**
     * @param newStream registers a new resumable stream for this request (unused in {@link Mode#JSON})
     * @param retry     the reconnection delay the priming event announces
     */
    ClientExchange(AsyncContext async, Mode mode, Supplier<SseStream> newStream, Duration retry) {
        this(async, mode, newStream, retry, response -> 200);
    }

    /** @param status the HTTP status of a response sent as one JSON body (a stream is always 200) */
    ClientExchange(AsyncContext async, Mode mode, Supplier<SseStream> newStream, Duration retry,
                   ToIntFunction<JsonRpcMessage> status) {
        this.async = async;
        this.mode = mode;
        this.newStream = newStream;
        this.retry = retry;
        this.status = status;
    }

    /** True when messages can reach the client before the response (on a stream, now or once needed). */
    boolean carriesEvents() {
        return mode != Mode.JSON;
    }

    /** True once the answer travels on a stream the client may resume: losing the connection is no cancellation. */
    boolean resumable() {
        synchronized (lock) {
            return stream != null;
        }
    }

    /**
     * Opens the SSE stream right away with its priming event, so the client sees the headers and can resume before
     * a slow backend says anything.
     */
    void open() {
        if (mode == Mode.STREAM) {
            synchronized (lock) {
                openStream();
            }
        }
    }

    /** Progress travels on the SSE stream; a JSON exchange cannot carry it. */
    @Override
    public Consumer<JsonObject> progress() {
        return carriesEvents() ? params -> event(JsonRpcMessage.notification("notifications/progress", params)) : null;
    }

    /**
     * A cancelled request gets no response on a stream (the spec says not to answer it); a JSON exchange still
     * needs a body, so it gets the request-cancelled error, which the client ignores for a request it cancelled.
     */
    @Override
    public void cancelled(JsonRpcMessage request) {
        synchronized (lock) {
            if (stream != null) {
                complete();
            } else {
                answer(GatewayErrors.error(request.id(), GatewayErrors.REQUEST_CANCELLED, "Request cancelled", null));
            }
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
                    HttpReplies.json((jakarta.servlet.http.HttpServletResponse) async.getResponse(), status.applyAsInt(response), response);
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
            if (completed) {
                return;
            }
            if (stream == null) {
                openStream();
            }
            stream.send(message);
        }
    }

    // guarded by lock
    private void openStream() {
        stream = newStream.get();
        stream.attachFresh(SseConnection.open(async), retry);
    }
}
