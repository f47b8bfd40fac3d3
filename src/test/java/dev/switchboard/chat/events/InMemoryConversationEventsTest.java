package dev.switchboard.chat.events;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InMemoryConversationEventsTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final InMemoryConversationEvents events = new InMemoryConversationEvents(3, Duration.ofMinutes(30), now::get);

    private static JsonObject data(int n) {
        return Json.createObjectBuilder().add("n", n).build();
    }

    private static List<Integer> numbers(List<ConversationEvent> received) {
        return received.stream().map(e -> e.data().getInt("n")).toList();
    }

    @Test
    void watchersGetEachNewEventOfTheirConversationInOrderWithGrowingIds() {
        List<ConversationEvent> seven = new ArrayList<>();
        List<ConversationEvent> eight = new ArrayList<>();
        ConversationEvents.Watch watch = events.watch(7, null, seven::add);
        events.watch(8, null, eight::add);
        assertFalse(watch.missedEvents());
        assertEquals(0, watch.position().sequence(), "before the first event");
        for (int i = 1; i <= 4; i++) {
            events.publish(7, "t", data(i));
        }
        events.publish(8, "t", data(80));
        assertEquals(List.of(1, 2, 3, 4), numbers(seven));
        assertEquals(List.of(80), numbers(eight));
        assertEquals(List.of(1L, 2L, 3L, 4L), seven.stream().map(e -> e.id().sequence()).toList());
        assertTrue(seven.stream().allMatch(e -> e.id().log() == watch.position().log() && e.conversationId() == 7));

        watch.close();
        events.publish(7, "t", data(5));
        assertEquals(4, seven.size(), "a closed watch gets nothing more");
    }

    @Test
    void aResumeReplaysWhatFollowsItsIdOnceThenTheLiveEvents() {
        List<ConversationEvent> published = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            published.add(events.publish(7, "t", data(i)));
        }
        List<ConversationEvent> resumed = new ArrayList<>();
        ConversationEvents.Watch watch = events.watch(7, published.get(1).id(), resumed::add);
        assertFalse(watch.missedEvents());
        assertEquals(published.get(1).id(), watch.position());
        events.publish(7, "t", data(5));
        assertEquals(List.of(3, 4, 5), numbers(resumed));

        List<ConversationEvent> upToDate = new ArrayList<>();
        assertFalse(events.watch(7, resumed.get(2).id(), upToDate::add).missedEvents());
        assertTrue(upToDate.isEmpty(), "nothing after the newest event");
    }

    @Test
    void aResumeFromEventsNoLongerKeptOrNeverSentIsToldItMissedEventsAndStartsNow() {
        List<ConversationEvent> published = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            published.add(events.publish(7, "t", data(i)));
        }
        long log = published.get(0).id().log();
        // three are kept (3, 4, 5): after 2 is still a full replay, after 1 is not
        List<ConversationEvent> fromTwo = new ArrayList<>();
        assertFalse(events.watch(7, published.get(1).id(), fromTwo::add).missedEvents());
        assertEquals(List.of(3, 4, 5), numbers(fromTwo));

        EventId newest = published.get(4).id();
        for (EventId lost : List.of(published.get(0).id(), new EventId(log, 1000), new EventId(log - 1, 5), new EventId(log + 1, 1))) {
            List<ConversationEvent> received = new ArrayList<>();
            ConversationEvents.Watch watch = events.watch(7, lost, received::add);
            assertTrue(watch.missedEvents(), "missed: " + lost);
            assertEquals(newest, watch.position(), "starts at the newest event");
            assertTrue(received.isEmpty(), "nothing replayed for " + lost);
            newest = events.publish(7, "t", data(0)).id();
            assertEquals(List.of(newest), received.stream().map(ConversationEvent::id).toList(), "then live");
            watch.close();
        }
    }

    @Test
    void anIdleConversationsEventsAreDroppedAndItsNextLogNumbersAbove() {
        ConversationEvent before = events.publish(7, "t", data(1));
        ConversationEvents.Watch watching = events.watch(9, null, e -> { });
        now.addAndGet(Duration.ofMinutes(31).toMillis());
        events.publish(8, "t", data(2)); // runs the sweep

        List<ConversationEvent> received = new ArrayList<>();
        ConversationEvents.Watch resumed = events.watch(7, before.id(), received::add);
        assertTrue(resumed.missedEvents(), "the idle log was dropped: its events are gone");
        assertTrue(resumed.position().log() > before.id().log(), "a new log, numbered above the old one");
        assertEquals(0, resumed.position().sequence());

        ConversationEvent kept = events.publish(9, "t", data(3));
        assertEquals(watching.position().log(), kept.id().log(), "a watched conversation keeps its log however quiet");
    }

    @Test
    void aWatcherThatFailsIsDroppedWithoutKeepingTheEventFromOthers() {
        List<ConversationEvent> good = new ArrayList<>();
        events.watch(7, null, e -> {
            throw new IllegalStateException("broken");
        });
        events.watch(7, null, good::add);
        events.publish(7, "t", data(1));
        events.publish(7, "t", data(2));
        assertEquals(List.of(1, 2), numbers(good));
    }

    @Test
    void idsAreWrittenAndReadBackAndNothingElseIsOne() {
        EventId id = new EventId(1739871234567L, 12);
        assertEquals("1739871234567-12", id.toString());
        assertEquals(id, EventId.parse(" 1739871234567-12 ").orElseThrow());
        for (String bad : new String[] {"", "12", "-1-2", "a-1", "1-2-3", "99999999999999999999-1", null}) {
            assertTrue(EventId.parse(bad).isEmpty(), "not an id: " + bad);
        }
        assertNotEquals(new EventId(1, 2), new EventId(2, 1));
    }

    @Test
    void theLimitsMustMakeSense() {
        assertThrows(IllegalArgumentException.class, () -> new InMemoryConversationEvents(0, Duration.ofMinutes(1), now::get));
        assertThrows(IllegalArgumentException.class, () -> new InMemoryConversationEvents(1, Duration.ZERO, now::get));
    }
}
