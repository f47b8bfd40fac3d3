package dev.switchboard.chat.events;

import jakarta.json.JsonObject;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The events of each conversation, for everyone watching it ({@code GET /api/conversations/{id}/events}): published
 * once by whoever causes them, numbered in the conversation's own order, kept for a while so that a watcher that lost
 * its connection resumes where it was, and handed to every watcher.
 * <p>
 * {@link InMemoryConversationEvents} keeps them in this instance's memory, which is all one instance needs. Behind a
 * load balancer a run and its watchers may sit on different members: in cluster mode the cluster room's implementation
 * (a Hazelcast {@code Ringbuffer} per conversation for numbering, replay and delivery) replaces it behind this
 * interface, nothing else changing.
 */
public interface ConversationEvents {

    /** Numbers the event in its conversation, keeps it for resumption and hands it to the conversation's watchers. */
    ConversationEvent publish(long conversationId, String type, JsonObject data);

    /**
     * Starts handing the conversation's events to {@code watcher}: with {@code resumeAfter}, the kept events after it
     * first, then each new one; without, the new ones. In order, each once, one at a time; the watcher must not block
     * (it is called where the event is published), so it hands the event on to be written elsewhere.
     *
     * @param resumeAfter the last event the watcher has, or null to start now
     */
    Watch watch(long conversationId, EventId resumeAfter, Consumer<ConversationEvent> watcher);

    /** A watcher's place in a conversation's events; closing it stops the delivery. */
    interface Watch extends AutoCloseable {

        /** The id of the last event before the first one delivered: where a watcher without events resumes from. */
        EventId position();

        /**
         * True when {@code resumeAfter} could not be honoured (its events are no longer kept, or it is no id of the
         * conversation's log): the watcher missed events and should read the conversation again; delivery then
         * starts at {@link #position()}.
         */
        boolean missedEvents();

        @Override
        void close();

        /** A watch at {@code position} that runs {@code onClose} when closed (once; closing again does nothing). */
        static Watch of(EventId position, boolean missedEvents, Runnable onClose) {
            AtomicBoolean closed = new AtomicBoolean();
            return new Watch() {
                @Override
                public EventId position() {
                    return position;
                }

                @Override
                public boolean missedEvents() {
                    return missedEvents;
                }

                @Override
                public void close() {
                    if (closed.compareAndSet(false, true)) {
                        onClose.run();
                    }
                }
            };
        }
    }
}
