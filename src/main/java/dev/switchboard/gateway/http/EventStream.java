package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The GET stream of a session, for messages the server starts ({@code notifications/tools/list_changed}), with SSE
 * comments in between that keep proxies from closing it; it ends with the session or when the client leaves.
 */
final class EventStream implements AsyncListener {

    private final AsyncContext async;
    private final GatewaySession session;
    private final Runnable end = this::close;
    private final Consumer<JsonRpcMessage> messages = this::send;
    private ScheduledFuture<?> keepAlive;
    private boolean closed;

    private EventStream(AsyncContext async, GatewaySession session) {
        this.async = async;
        this.session = session;
    }

    static void open(AsyncContext async, GatewaySession session, ScheduledExecutorService scheduler, Duration interval)
            throws IOException {
        EventStream stream = new EventStream(async, session);
        async.setTimeout(0);
        async.addListener(stream);
        HttpServletResponse response = (HttpServletResponse) async.getResponse();
        response.setStatus(200);
        response.setContentType("text/event-stream");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-cache");
        stream.write(": stream open\n\n");
        synchronized (stream) {
            stream.keepAlive = scheduler.scheduleAtFixedRate(() -> stream.write(": keep-alive\n\n"),
                    interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        }
        session.addStream(stream.messages);
        session.onEnd(stream.end);
    }

    private void send(JsonRpcMessage message) {
        write("event: message\ndata: " + message.toJson() + "\n\n");
    }

    private synchronized void write(String text) {
        if (closed) {
            return;
        }
        try {
            OutputStream out = async.getResponse().getOutputStream();
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException | IllegalStateException e) {
            close();
        }
    }

    private synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (keepAlive != null) {
            keepAlive.cancel(false);
        }
        session.removeOnEnd(end);
        session.removeStream(messages);
        async.complete();
    }

    private synchronized void forget() {
        closed = true;
        if (keepAlive != null) {
            keepAlive.cancel(false);
        }
        session.removeOnEnd(end);
        session.removeStream(messages);
    }

    @Override
    public void onComplete(AsyncEvent event) {
        forget();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        close();
    }

    @Override
    public void onError(AsyncEvent event) {
        close();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // a stream is started once
    }
}
