package dev.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.query.Predicates;
import com.hazelcast.ringbuffer.Ringbuffer;
import dev.switchboard.chat.events.ConversationEvent;
import dev.switchboard.chat.events.ConversationEvents;
import dev.switchboard.chat.events.EventId;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@link ConversationEvents} every member shares: a conversation's events are a Hazelcast {@link Ringbuffer} (the
 * newest {@code switchboard.chat.events.replay-size} kept, each for the retention time), numbered by the ring's owner, so
 * a run on one member and a tab watching on another see one order, and a tab resumes on any member. Each watcher
 * follows the ring ({@link RingReader}). The log number of an event id is kept in a map entry per conversation, which
 * expires once the conversation has been neither published to nor watched for the retention time (taking its ring with
 * it), so a later log of the conversation gets a new number and an id of the old one is recognised as missed events.
 */
final class HazelcastConversationEvents implements ConversationEvents {

    private static final Logger LOG = Logger.getLogger(HazelcastConversationEvents.class.getName());

    private final HazelcastInstance hazelcast;
    private final IMap<Long, Long> logs;
    private final Executor executor;
    private final LongSupplier clock;
    /** The conversations watched on this member, by how many watchers: their entries are kept alive. */
    private final Map<Long, AtomicInteger> watched = new ConcurrentHashMap<>();

    HazelcastConversationEvents(HazelcastInstance hazelcast, Executor executor, LongSupplier clock) {
        this.hazelcast = hazelcast;
        this.logs = hazelcast.getMap(MemberConfig.CONVERSATION_LOGS);
        this.executor = executor;
        this.clock = clock;
        logs.addLocalEntryListener((EntryExpiredListener<Long, Long>) expired -> ring(expired.getKey()).destroy(),
                Predicates.alwaysTrue(), false);
    }

    @Override
    public ConversationEvent publish(long conversationId, String type, JsonObject data) {
        long log = logNumber(conversationId);
        String item = JSON.createObjectBuilder().add("type", type).add("data", data).build().toString();
        long sequence = ring(conversationId).add(item);
        return new ConversationEvent(conversationId, new EventId(log, sequence + 1), type, data);
    }

    @Override
    public Watch watch(long conversationId, EventId resumeAfter, Consumer<ConversationEvent> watcher) {
        long log = logNumber(conversationId);
        Ringbuffer<String> ring = ring(conversationId);
        // event sequences count from 1, ring sequences from 0: event n is ring item n - 1
        long last = ring.tailSequence() + 1;
        long firstKept = ring.headSequence() + 1;
        boolean resumable = resumeAfter != null && resumeAfter.log() == log
                && resumeAfter.sequence() >= firstKept - 1 && resumeAfter.sequence() <= last;
        EventId position = resumable ? resumeAfter : new EventId(log, last);
        boolean missed = resumeAfter != null && !resumable;
        watched.computeIfAbsent(conversationId, id -> new AtomicInteger()).incrementAndGet();
        RingReader reader = RingReader.start(ring, position.sequence(), executor, new RingReader.Items() {
            @Override
            public boolean take(long sequence, String item) {
                return deliver(conversationId, new EventId(log, sequence + 1), item, watcher);
            }

            @Override
            public void gone() {
                LOG.fine(() -> "the events of conversation " + conversationId + " were dropped while watched");
            }
        });
        return Watch.of(position, missed, () -> {
            reader.stop();
            unwatched(conversationId);
        });
    }

    /** Keeps the entries of the conversations watched here alive: a quiet conversation someone watches keeps its log. */
    void touchWatched() {
        Set<Long> ids = Set.copyOf(watched.keySet());
        if (!ids.isEmpty()) {
            logs.getAll(ids);
        }
    }

    private void unwatched(long conversationId) {
        watched.computeIfPresent(conversationId, (id, count) -> count.decrementAndGet() <= 0 ? null : count);
    }

    /** A watcher that fails is dropped rather than failing the others (each reads on its own anyway). */
    private static boolean deliver(long conversationId, EventId id, String item, Consumer<ConversationEvent> watcher) {
        JsonObject event;
        try (var reader = JSON.createReader(new StringReader(item))) {
            event = reader.readObject();
        }
        try {
            watcher.accept(new ConversationEvent(conversationId, id, event.getString("type"), event.getJsonObject("data")));
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A watcher of conversation " + conversationId + " failed; it gets no more events", e);
            return false;
        }
    }

    /** The conversation's log number, made (from this member's clock) when the conversation has none; one step. */
    private long logNumber(long conversationId) {
        return logs.executeOnKey(conversationId, new LogNumber(clock.getAsLong()));
    }

    private Ringbuffer<String> ring(long conversationId) {
        return hazelcast.getRingbuffer(MemberConfig.CONVERSATION_RING_PREFIX + conversationId);
    }

    /** The entry's log number, or {@code proposed} when there is none; writing it back keeps the entry alive. */
    record LogNumber(long proposed) implements EntryProcessor<Long, Long, Long> {
        @Override
        public Long process(Map.Entry<Long, Long> entry) {
            Long number = entry.getValue() == null ? proposed : entry.getValue();
            entry.setValue(number);
            return number;
        }
    }
}
