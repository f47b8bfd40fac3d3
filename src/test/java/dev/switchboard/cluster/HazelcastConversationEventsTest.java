package dev.switchboard.cluster;

import dev.switchboard.chat.events.ConversationEvent;
import dev.switchboard.chat.events.ConversationEvents;
import dev.switchboard.chat.events.EventId;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Conversation events two real Hazelcast members share: one order for both, resumption on either. */
class HazelcastConversationEventsTest {

    private static final int REPLAY = 8;
    private static final AtomicLong CONVERSATIONS = new AtomicLong(1000);
    private static TwoMembers members;
    private static ExecutorService executor;
    private static HazelcastConversationEvents one;
    private static HazelcastConversationEvents two;

    @BeforeAll
    static void start() throws Exception {
        members = TwoMembers.start(new StreamLimits(4, Duration.ofMinutes(5), REPLAY, Duration.ofMinutes(5)));
        executor = Executors.newCachedThreadPool();
        one = new HazelcastConversationEvents(members.one, executor, System::currentTimeMillis);
        two = new HazelcastConversationEvents(members.two, executor, System::currentTimeMillis);
    }

    @AfterAll
    static void stop() {
        members.close();
        executor.shutdownNow();
    }

    @Test
    void eventsPublishedOnOneMemberReachAWatcherOnTheOtherInOrder() throws Exception {
        long conversation = CONVERSATIONS.incrementAndGet();
        Received received = new Received();
        ConversationEvents.Watch watch = two.watch(conversation, null, received::add);
        assertFalse(watch.missedEvents());
        List<EventId> published = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            published.add((i % 2 == 0 ? two : one).publish(conversation, "assistant.toolCall.updated", state(i)).id());
        }
        List<ConversationEvent> events = received.await(3);
        assertEquals(published, events.stream().map(ConversationEvent::id).toList());
        assertEquals(List.of(1L, 2L, 3L), events.stream().map(e -> e.id().sequence()).toList(), "numbered from 1");
        assertEquals(watch.position().log(), events.get(0).id().log());
        assertEquals(0, watch.position().sequence(), "a watcher of a new conversation starts before its first event");
        assertEquals(2, events.get(1).data().getInt("step"));
        assertEquals("assistant.toolCall.updated", events.get(2).type());
        watch.close();
    }

    @Test
    void aWatcherResumesOnTheOtherMemberAfterItsLastEvent() throws Exception {
        long conversation = CONVERSATIONS.incrementAndGet();
        List<EventId> published = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            published.add(one.publish(conversation, "tool.message.updated", state(i)).id());
        }
        Received received = new Received();
        ConversationEvents.Watch watch = two.watch(conversation, published.get(1), received::add);
        assertFalse(watch.missedEvents());
        assertEquals(published.get(1), watch.position());
        one.publish(conversation, "tool.message.updated", state(6));
        List<ConversationEvent> events = received.await(4);
        assertEquals(List.of(3, 4, 5, 6), events.stream().map(e -> e.data().getInt("step")).toList(), "each once, in order");
        watch.close();
    }

    @Test
    void anIdOfAnotherLogOrNoLongerKeptIsMissedEvents() throws Exception {
        long conversation = CONVERSATIONS.incrementAndGet();
        EventId first = one.publish(conversation, "tool.message.updated", state(1)).id();
        for (int i = 2; i <= REPLAY + 3; i++) {
            two.publish(conversation, "tool.message.updated", state(i));
        }
        ConversationEvents.Watch tooOld = one.watch(conversation, first, event -> { });
        assertTrue(tooOld.missedEvents(), "the events after the first are no longer all kept");
        assertEquals(new EventId(first.log(), REPLAY + 3), tooOld.position(), "delivery starts at the newest");
        tooOld.close();
        ConversationEvents.Watch otherLog = two.watch(conversation, new EventId(first.log() - 1, 1), event -> { });
        assertTrue(otherLog.missedEvents());
        otherLog.close();
        ConversationEvents.Watch beyond = two.watch(conversation, new EventId(first.log(), REPLAY + 10), event -> { });
        assertTrue(beyond.missedEvents(), "an id never given out");
        beyond.close();
    }

    private static JsonObject state(int step) {
        return Json.createObjectBuilder().add("step", step).build();
    }

    /** What a watcher was handed, in order. */
    private static final class Received {
        private final List<ConversationEvent> events = new ArrayList<>();

        synchronized void add(ConversationEvent event) {
            events.add(event);
            notifyAll();
        }

        synchronized List<ConversationEvent> await(int count) throws InterruptedException {
            Instant deadline = Instant.now().plusSeconds(10);
            while (events.size() < count && Instant.now().isBefore(deadline)) {
                wait(200);
            }
            Thread.sleep(200);
            assertEquals(count, events.size(), events::toString);
            return List.copyOf(events);
        }
    }
}
