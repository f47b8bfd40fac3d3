package dev.switchboard.gateway.http;

import dev.switchboard.gateway.SseStream;
import jakarta.servlet.AsyncContext;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One GET connection: it carries a session's GET stream (messages the server starts, such as
 * {@code notifications/tools/list_changed}), or the rest of a request's stream the client resumes, with SSE comments
 * in between that keep proxies from closing it. It ends with the stream, the session, or when the client leaves.
 */
final class EventStream {

    private EventStream() {
    }

    /** A GET without {@code Last-Event-ID}: the stream from its current position on. */
    static void open(AsyncContext async, SseStream stream, ScheduledExecutorService scheduler, Duration interval,
                     Duration retry) {
        stream.attachFresh(connect(async, scheduler, interval), retry);
    }

    /**
     * A GET with {@code Last-Event-ID}: the events after it, then the live ones.
     *
     * @return how many events after it were no longer kept
     */
    static long resume(AsyncContext async, SseStream stream, long afterSequence, ScheduledExecutorService scheduler,
                       Duration interval) {
        return stream.attachAfter(connect(async, scheduler, interval), afterSequence);
    }

    private static SseConnection connect(AsyncContext async, ScheduledExecutorService scheduler, Duration interval) {
        async.setTimeout(0);
        SseConnection connection = SseConnection.open(async);
        ScheduledFuture<?> keepAlive = scheduler.scheduleAtFixedRate(() -> connection.write(": keep-alive\n\n"),
                interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        Runnable stopKeepAlive = () -> keepAlive.cancel(false);
        connection.whenClosed(stopKeepAlive);
        return connection;
    }
}
