package dev.switchboard.chat;

import dev.switchboard.chat.events.ConversationEvent;
import dev.switchboard.chat.events.ConversationEvents;
import dev.switchboard.chat.events.EventId;
import jakarta.json.JsonObject;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * One open {@code GET /api/conversations/{id}/events}: the conversation's events, queued as they are published and
 * written in order on a pooled thread, so a watcher whose client reads slowly never holds up the run that publishes.
 * A client too slow to keep up (twice the replay buffer's worth of events waiting) is cut off (it resumes with
 * {@code Last-Event-ID} and is told to reload if that is too far behind); a write that fails ends the watch.
 */
final class ConversationWatcher {

    private static final Logger LOG = Logger.getLogger(ConversationWatcher.class.getName());
    /** The reconnection delay a browser's EventSource is asked to use. */
    static final long RETRY_MILLIS = 2000;
    /** Tells a watcher that resumed too late to read the conversation again. */
    static final String RELOAD = "conversation.reload";

    private final long conversationId;
    private final SseEventSink sink;
    private final Sse sse;
    private final Executor writer;
    private final int queueLimit;
    private final Consumer<ConversationWatcher> onClose;
    private final Deque<OutboundSseEvent> queued = new ArrayDeque<>();
    private ConversationEvents.Watch watch;
    private boolean started;
    private boolean writing;
    private boolean closed;

    ConversationWatcher(long conversationId, SseEventSink sink, Sse sse, Executor writer, int queueLimit,
                        Consumer<ConversationWatcher> onClose) {
        this.conversationId = conversationId;
        this.sink = sink;
        this.sse = sse;
        this.writer = writer;
        this.queueLimit = queueLimit;
        this.onClose = onClose;
    }

    /** Hands an event to this watcher (the {@link ConversationEvents} delivery): queued, never written here. */
    void deliver(ConversationEvent event) {
        enqueue(sse.newEventBuilder().id(event.id().toString()).name(event.type()).data(String.class, event.data().toString()).build());
    }

    /**
     * Starts writing, once the watch is in place: first an event that sets the client's position (the id to resume
     * from and the reconnection delay; a {@value #RELOAD} event when it resumed from events no longer kept), then
     * what was queued meanwhile (the replay), then the live events.
     *
     * @param resumedFrom the client's {@code Last-Event-ID}, or null
     */
    void start(ConversationEvents.Watch placed, EventId resumedFrom) {
        OutboundSseEvent.Builder first = sse.newEventBuilder().id(placed.position().toString()).reconnectDelay(RETRY_MILLIS);
        if (placed.missedEvents()) {
            JsonObject reload = JSON.createObjectBuilder().add("conversationId", conversationId).add("reason", "events_missed")
                    .add("lastEventId", String.valueOf(resumedFrom)).build();
            first.name(RELOAD).data(String.class, reload.toString());
        } else {
            first.comment("conversation " + conversationId);
        }
        synchronized (this) {
            watch = placed;
            if (closed) {
                placed.close();
                return;
            }
            // in one step with starting: a live event queued meanwhile must not be written before it
            queued.addFirst(first.build());
            started = true;
            writing = true;
        }
        writer.execute(this::writeQueued);
    }

    /** An SSE comment that keeps proxies from closing a quiet stream, and finds out whether the client is still there. */
    void keepAlive() {
        if (sink.isClosed()) {
            close();
            return;
        }
        enqueue(sse.newEventBuilder().comment("keep-alive").build());
    }

    /** Ends the stream (the client sees its end) and the watch; idempotent. */
    void close() {
        ConversationEvents.Watch placed;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            queued.clear();
            placed = watch;
        }
        if (placed != null) {
            placed.close();
        }
        try {
            sink.close();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "the event stream of conversation " + conversationId + " was closed already", e);
        }
        onClose.accept(this);
    }

    private void enqueue(OutboundSseEvent event) {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (queued.size() >= queueLimit) {
                LOG.fine(() -> "a watcher of conversation " + conversationId + " fell " + queueLimit + " events behind; cut off");
                writer.execute(this::close);
                return;
            }
            queued.addLast(event);
            if (!started || writing) {
                return;
            }
            writing = true;
        }
        writer.execute(this::writeQueued);
    }

    private void writeQueued() {
        while (true) {
            OutboundSseEvent next;
            synchronized (this) {
                next = queued.pollFirst();
                if (next == null || closed) {
                    writing = false;
                    return;
                }
            }
            try {
                sink.send(next).toCompletableFuture().join();
            } catch (CompletionException | IllegalStateException e) {
                LOG.log(Level.FINE, "a watcher of conversation " + conversationId + " went away", e);
                close();
                return;
            }
        }
    }
}
