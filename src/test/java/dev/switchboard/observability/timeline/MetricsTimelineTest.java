package dev.switchboard.observability.timeline;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MetricsTimelineTest {

    static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
    static final long MS = 1_000_000;

    static Instant minute(int n) {
        return T0.plus(Duration.ofMinutes(n));
    }

    /** Cumulative figures: gateway calls/errors with 10 ms each, chat calls/errors with 200 ms each. */
    static Sample at(int minute, long gatewayCalls, long gatewayErrors, long chatCalls, long chatErrors) {
        return new Sample(minute(minute), new CallTotals(gatewayCalls, gatewayErrors, gatewayCalls, gatewayCalls * 10 * MS),
                new CallTotals(chatCalls, chatErrors, chatCalls, chatCalls * 200 * MS));
    }

    @Test
    void eachSampleBecomesThePointOfItsIntervalCountedFromTheOneBefore() {
        MetricsTimeline timeline = new MetricsTimeline(60, at(0, 5, 1, 2, 0));
        timeline.add(at(1, 15, 1, 2, 0));
        timeline.add(at(2, 15, 1, 6, 3));

        List<TimelinePoint> points = timeline.since(T0, at(2, 15, 1, 6, 3));
        assertEquals(2, points.size(), "no running interval when nothing time passed since the last sample");
        TimelinePoint first = points.get(0);
        assertEquals(minute(0), first.start());
        assertEquals(minute(1), first.end());
        assertFalse(first.partial());
        assertEquals(new CallTotals(10, 0, 10, 100 * MS), first.gateway(), "the calls before sampling began are not in it");
        assertEquals(CallTotals.NONE, first.chat());
        assertEquals(10.0, first.gateway().meanMillis(), 1e-9);
        assertNull(first.chat().meanMillis(), "no call is no latency, not a latency of zero");

        TimelinePoint second = points.get(1);
        assertEquals(CallTotals.NONE, second.gateway());
        assertEquals(new CallTotals(4, 3, 4, 800 * MS), second.chat());
        assertEquals(200.0, second.chat().meanMillis(), 1e-9);
    }

    @Test
    void theRunningIntervalIsShownAsAPartialPointBeforeItCloses() {
        MetricsTimeline timeline = new MetricsTimeline(60, at(0, 0, 0, 0, 0));
        timeline.add(at(1, 3, 0, 0, 0));
        Sample now = new Sample(minute(1).plusSeconds(20), new CallTotals(7, 2, 7, 70 * MS), CallTotals.NONE);

        List<TimelinePoint> points = timeline.since(T0, now);
        assertEquals(2, points.size());
        TimelinePoint running = points.get(1);
        assertTrue(running.partial());
        assertEquals(minute(1), running.start());
        assertEquals(now.at(), running.end());
        assertEquals(new CallTotals(4, 2, 4, 40 * MS), running.gateway());

        // reading does not close the interval: the next sample still counts from the last one
        timeline.add(at(2, 9, 2, 0, 0));
        TimelinePoint closed = timeline.since(T0, at(2, 9, 2, 0, 0)).get(1);
        assertFalse(closed.partial());
        assertEquals(6, closed.gateway().calls());
    }

    @Test
    void theRingKeepsOnlyItsCapacityDroppingTheOldest() {
        MetricsTimeline timeline = new MetricsTimeline(3, at(0, 0, 0, 0, 0));
        for (int m = 1; m <= 5; m++) {
            timeline.add(at(m, m * 10L, 0, 0, 0));
        }
        List<TimelinePoint> points = timeline.since(T0, at(5, 50, 0, 0, 0));
        assertEquals(List.of(minute(2), minute(3), minute(4)), points.stream().map(TimelinePoint::start).toList());
        assertTrue(points.stream().allMatch(p -> p.gateway().calls() == 10));
    }

    @Test
    void onlyPointsEndingInsideTheWindowAreReturned() {
        MetricsTimeline timeline = new MetricsTimeline(60, at(0, 0, 0, 0, 0));
        for (int m = 1; m <= 10; m++) {
            timeline.add(at(m, m, 0, 0, 0));
        }
        List<TimelinePoint> points = timeline.since(minute(7), at(10, 10, 0, 0, 0));
        assertEquals(List.of(minute(8), minute(9), minute(10)), points.stream().map(TimelinePoint::end).toList());
    }

    @Test
    void aFigureThatWentDownCountsAsNothingAndStaleSamplesAreIgnored() {
        MetricsTimeline timeline = new MetricsTimeline(60, at(0, 10, 4, 0, 0));
        timeline.add(at(1, 3, 0, 0, 0)); // a metric removed and registered again starts from zero
        timeline.add(at(1, 99, 0, 0, 0)); // same instant as the last sample: ignored
        timeline.add(new Sample(minute(0), CallTotals.NONE, CallTotals.NONE)); // earlier: ignored
        List<TimelinePoint> points = timeline.since(T0, at(1, 3, 0, 0, 0));
        assertEquals(1, points.size());
        assertEquals(CallTotals.NONE, points.get(0).gateway());
        timeline.add(at(2, 5, 1, 0, 0));
        assertEquals(new CallTotals(2, 1, 2, 20 * MS), timeline.since(T0, at(2, 5, 1, 0, 0)).get(1).gateway());
    }

    @Test
    void badInputIsRefusedWithTheReason() {
        IllegalArgumentException capacity = assertThrows(IllegalArgumentException.class, () -> new MetricsTimeline(0, at(0, 0, 0, 0, 0)));
        assertEquals("a timeline keeps at least one point, not 0", capacity.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CallTotals(-1, 0, 0, 0));
        assertThrows(NullPointerException.class, () -> new Sample(null, CallTotals.NONE, CallTotals.NONE));
    }

    @Test
    void theSamplersSettingsGiveTheRingsSize() {
        assertEquals(60, MetricsSampler.capacity(Duration.ofMinutes(1), Duration.ofHours(1)));
        assertEquals(720, MetricsSampler.capacity(Duration.ofSeconds(5), Duration.ofHours(1)));
        assertEquals(3, MetricsSampler.capacity(Duration.ofSeconds(40), Duration.ofMinutes(2)), "a part of an interval needs a point");
        assertEquals("switchboard.metrics.timeline-interval must be at least 1 second, not PT0.5S",
                assertThrows(IllegalArgumentException.class, () -> MetricsSampler.capacity(Duration.ofMillis(500), Duration.ofHours(1))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> MetricsSampler.capacity(Duration.ofMinutes(5), Duration.ofMinutes(1)));
        assertThrows(IllegalArgumentException.class, () -> MetricsSampler.capacity(Duration.ofSeconds(1), Duration.ofDays(30)));
    }
}
