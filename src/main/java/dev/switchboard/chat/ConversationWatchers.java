package dev.switchboard.chat;

import dev.switchboard.chat.events.ConversationEvents;
import dev.switchboard.chat.events.EventId;
import dev.switchboard.platform.drain.DrainStarted;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The open conversation event streams of this instance: one timer sends every stream its keep-alive, and when the
 * server stops every stream is ended, so clients see the end of the stream (and reconnect elsewhere) rather than a
 * connection that hangs.
 */
@ApplicationScoped
public class ConversationWatchers {

    @Inject
    ConversationEvents events;

    @Resource
    ManagedScheduledExecutorService executor;

    /** How often a quiet stream gets an SSE comment. */
    @Inject
    @ConfigProperty(name = "switchboard.chat.events.keep-alive", defaultValue = "PT15S")
    Duration keepAlive;

    /**
     * A stream with more events waiting than a full replay and as many live ones is cut off: its client resumes, and
     * is told to reload when it is that far behind.
     */
    @Inject
    @ConfigProperty(name = "switchboard.chat.events.replay-size", defaultValue = "256")
    int replaySize;

    private final Set<ConversationWatcher> open = ConcurrentHashMap.newKeySet();
    private ScheduledFuture<?> keepingAlive;

    @PostConstruct
    void start() {
        keepingAlive = executor.scheduleAtFixedRate(() -> open.forEach(ConversationWatcher::keepAlive),
                keepAlive.toMillis(), keepAlive.toMillis(), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        keepingAlive.cancel(false);
        endAll();
    }

    /**
     * This member drains: its streams end now, not when it stops, so their clients reconnect (after the retry each
     * stream's first event gave) to a member that stays, resuming from their last event id. (Not created for this:
     * a member that never had a stream has none to end.)
     */
    void endOnDrain(@Observes(notifyObserver = Reception.IF_EXISTS) DrainStarted drain) {
        endAll();
    }

    private void endAll() {
        List.copyOf(open).forEach(ConversationWatcher::close);
    }

    /**
     * Streams the conversation's events to {@code sink}, after {@code resumeAfter} when given ({@code Last-Event-ID}).
     * The caller has checked that the conversation is theirs.
     */
    void open(long conversationId, EventId resumeAfter, SseEventSink sink, Sse sse) {
        ConversationWatcher watcher = new ConversationWatcher(conversationId, sink, sse, executor, 2 * replaySize, open::remove);
        open.add(watcher);
        watcher.start(events.watch(conversationId, resumeAfter, watcher::deliver), resumeAfter);
    }
}
