package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.UpstreamReply;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The answer to one client request, written from a worker thread: either one JSON body, or an SSE stream that
 * carries the request's progress notifications and then its response. Writes are serialised because progress
 * arrives on a backend's reader thread.
 */
final class UpstreamExchange implements UpstreamReply {

    private static final Logger LOG = Logger.getLogger(UpstreamExchange.class.getName());

    private final AsyncContext async;
    private final boolean stream;
    private final Object lock = new Object();
    private boolean completed;
    private boolean broken;

    UpstreamExchange(AsyncContext async, boolean stream) {
        this.async = async;
        this.stream = stream;
    }

    boolean isStream() {
        return stream;
    }

    /** Opens the SSE stream right away, so the client sees the headers before a slow backend answers. */
    void open() {
        if (!stream) {
            return;
        }
        synchronized (lock) {
            HttpServletResponse response = response();
            response.setStatus(200);
            response.setContentType("text/event-stream");
            response.setCharacterEncoding("UTF-8");
            response.setHeader("Cache-Control", "no-cache");
            try {
                response.flushBuffer();
            } catch (IOException e) {
                broken = true;
            }
        }
    }

    /** Progress travels on the SSE stream; a JSON exchange cannot carry it. */
    @Override
    public Consumer<JsonObject> progress() {
        return stream ? params -> event(JsonRpcMessage.notification("notifications/progress", params)) : null;
    }

    /**
     * A cancelled request gets no response on a stream (the spec says not to answer it); a JSON exchange still
     * needs a body, so it gets the request-cancelled error, which the client ignores for a request it cancelled.
     */
    @Override
    public void cancelled(JsonRpcMessage request) {
        if (stream) {
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
            if (stream) {
                event(response);
            } else {
                try {
                    HttpReplies.json(response(), 200, response);
                } catch (IOException e) {
                    LOG.log(Level.FINE, "client went away before its answer", e);
                }
            }
            complete();
        }
    }

    /** Ends the exchange without a response (a cancelled request on a stream: the spec says not to answer). */
    void complete() {
        synchronized (lock) {
            if (!completed) {
                completed = true;
                async.complete();
            }
        }
    }

    private void event(JsonRpcMessage message) {
        synchronized (lock) {
            if (completed || broken) {
                return;
            }
            try {
                OutputStream out = response().getOutputStream();
                out.write(("event: message\ndata: " + message.toJson() + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                broken = true;
                LOG.log(Level.FINE, "client closed its stream", e);
            }
        }
    }

    private HttpServletResponse response() {
        return (HttpServletResponse) async.getResponse();
    }
}
