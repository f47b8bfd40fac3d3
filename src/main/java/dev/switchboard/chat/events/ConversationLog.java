package dev.switchboard.chat.events;

import jakarta.json.JsonObject;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One conversation's events in this instance's memory: the newest {@code capacity} kept for resumption, and the
 * watchers they are handed to, in order, under this log's lock (watchers only queue them).
 */
final class ConversationLog {

    private static final Logger LOG = Logger.getLogger(ConversationLog.class.getName());

    private final long conversationId;
    private final long number;
    private final int capacity;
    private final LongSupplier clock;
    private final Deque<ConversationEvent> kept = new ArrayDeque<>();
    private final List<Consumer<ConversationEvent>> watchers = new ArrayList<>();
    private long lastSequence;
    private long lastActiveMillis;

    /**
     * @param number this log's number in the ids of its events; a later log of the conversation has a higher one
     * @param clock  the time in milliseconds, for idleness
     */
    ConversationLog(long conversationId, long number, int capacity, LongSupplier clock) {
        this.conversationId = conversationId;
        this.number = number;
        this.capacity = capacity;
        this.clock = clock;
        this.lastActiveMillis = clock.getAsLong();
    }

    synchronized ConversationEvent append(String type, JsonObject data) {
        ConversationEvent event = new ConversationEvent(conversationId, new EventId(number, ++lastSequence), type, data);
        kept.addLast(event);
        if (kept.size() > capacity) {
            kept.removeFirst();
        }
        lastActiveMillis = clock.getAsLong();
        for (Consumer<ConversationEvent> watcher : List.copyOf(watchers)) {
            deliver(watcher, event);
        }
        return event;
    }

    /** Replays what follows {@code resumeAfter} (when it can) and adds the watcher, atomically: nothing is missed between. */
    synchronized ConversationEvents.Watch attach(EventId resumeAfter, Consumer<ConversationEvent> watcher) {
        long firstKept = kept.isEmpty() ? lastSequence + 1 : kept.peekFirst().id().sequence();
        boolean resumable = resumeAfter != null && resumeAfter.log() == number
                && resumeAfter.sequence() >= firstKept - 1 && resumeAfter.sequence() <= lastSequence;
        if (resumable) {
            for (ConversationEvent event : kept) {
                if (event.id().sequence() > resumeAfter.sequence()) {
                    deliver(watcher, event);
                }
            }
        }
        watchers.add(watcher);
        lastActiveMillis = clock.getAsLong();
        EventId position = resumable ? resumeAfter : new EventId(number, lastSequence);
        boolean missed = resumeAfter != null && !resumable;
        return ConversationEvents.Watch.of(position, missed, () -> detach(watcher));
    }

    /** Nobody watches and nothing happened since {@code cutoffMillis}: the log can go (a resume then reads the conversation again). */
    synchronized boolean idleSince(long cutoffMillis) {
        return watchers.isEmpty() && lastActiveMillis < cutoffMillis;
    }

    private synchronized void detach(Consumer<ConversationEvent> watcher) {
        if (watchers.remove(watcher)) {
            lastActiveMillis = clock.getAsLong();
        }
    }

    /** A watcher that fails is dropped rather than keeping the event from the others or failing the publisher. */
    private void deliver(Consumer<ConversationEvent> watcher, ConversationEvent event) {
        try {
            watcher.accept(event);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A watcher of conversation " + conversationId + " failed; it gets no more events", e);
            watchers.remove(watcher);
        }
    }
}
