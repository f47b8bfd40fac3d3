package dev.switchboard.chat.events;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@link ConversationEvents} of a single instance: one {@link ConversationLog} per conversation in memory, created by
 * its first event or watcher and dropped once nobody has watched it and nothing has happened in it for the retention
 * time. In cluster mode an implementation whose logs all members share replaces this (see {@link ConversationEvents}).
 * <p>
 * Log numbers start from the clock at the log's creation, so the logs of a restarted server (which start empty)
 * number above the ones before it and an id from before the restart is recognised as missed events.
 */
@ApplicationScoped
public class InMemoryConversationEvents implements ConversationEvents {

    /** How many of a conversation's newest events are kept for watchers that resume. */
    @Inject
    @ConfigProperty(name = "switchboard.chat.events.replay-size", defaultValue = "256")
    int replaySize;

    /** How long a conversation's events are kept after its last event or watcher. */
    @Inject
    @ConfigProperty(name = "switchboard.chat.events.retention", defaultValue = "PT30M")
    Duration retention;

    private LongSupplier clock = System::currentTimeMillis;
    private final Map<Long, ConversationLog> logs = new ConcurrentHashMap<>();
    private final AtomicLong lastLogNumber = new AtomicLong();
    private final AtomicLong nextSweepMillis = new AtomicLong();

    /** For CDI, which sets the configuration. */
    public InMemoryConversationEvents() {
    }

    /** Outside CDI: keeps {@code replaySize} events per conversation for {@code retention}, by {@code clock} (milliseconds). */
    public InMemoryConversationEvents(int replaySize, Duration retention, LongSupplier clock) {
        this.replaySize = replaySize;
        this.retention = retention;
        this.clock = clock;
        check();
    }

    @PostConstruct
    void check() {
        if (replaySize < 1) {
            throw new IllegalArgumentException("switchboard.chat.events.replay-size must be at least 1, not " + replaySize);
        }
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("switchboard.chat.events.retention must be positive, not " + retention);
        }
    }

    @Override
    public ConversationEvent publish(long conversationId, String type, JsonObject data) {
        sweepIfDue();
        ConversationEvent[] published = new ConversationEvent[1];
        // appended inside compute, so a sweep cannot drop the log between finding it and appending to it
        logs.compute(conversationId, (id, log) -> {
            ConversationLog current = log != null ? log : newLog(id);
            published[0] = current.append(type, data);
            return current;
        });
        return published[0];
    }

    @Override
    public Watch watch(long conversationId, EventId resumeAfter, Consumer<ConversationEvent> watcher) {
        sweepIfDue();
        Watch[] watch = new Watch[1];
        logs.compute(conversationId, (id, log) -> {
            ConversationLog current = log != null ? log : newLog(id);
            watch[0] = current.attach(resumeAfter, watcher);
            return current;
        });
        return watch[0];
    }

    private ConversationLog newLog(long conversationId) {
        long number = lastLogNumber.updateAndGet(last -> Math.max(last + 1, clock.getAsLong()));
        return new ConversationLog(conversationId, number, replaySize, clock);
    }

    /** At most every quarter of the retention time (at least a second apart), drops the logs that have been idle for it. */
    private void sweepIfDue() {
        long now = clock.getAsLong();
        long due = nextSweepMillis.get();
        if (now < due || !nextSweepMillis.compareAndSet(due, now + Math.max(1000, retention.toMillis() / 4))) {
            return;
        }
        long cutoff = now - retention.toMillis();
        for (Long id : logs.keySet()) {
            logs.computeIfPresent(id, (key, log) -> log.idleSince(cutoff) ? null : log);
        }
    }
}
