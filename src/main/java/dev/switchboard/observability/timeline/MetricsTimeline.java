package dev.switchboard.observability.timeline;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The recent past of the cumulative call metrics as a bounded ring of points, one per sampling interval: each sample
 * is turned into the difference from the one before, the oldest point is dropped when the ring is full. Thread-safe:
 * a timer adds samples while requests read.
 */
public final class MetricsTimeline {

    private final int capacity;
    private final Instant startedAt;
    private final Deque<TimelinePoint> points = new ArrayDeque<>();
    private Sample last;

    /**
     * @param capacity how many points are kept (at least 1)
     * @param first    the figures when sampling began: the first point counts from them
     */
    public MetricsTimeline(int capacity, Sample first) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a timeline keeps at least one point, not " + capacity);
        }
        this.capacity = capacity;
        this.startedAt = first.at();
        this.last = first;
    }

    /** When sampling began: nothing before it is known (the process was not running, or the metrics were not read). */
    public Instant startedAt() {
        return startedAt;
    }

    /** Closes the interval since the last sample. A sample not later than the last one is ignored. */
    public synchronized void add(Sample sample) {
        if (!sample.at().isAfter(last.at())) {
            return;
        }
        points.addLast(between(last, sample, false));
        while (points.size() > capacity) {
            points.removeFirst();
        }
        last = sample;
    }

    /**
     * The points that end after {@code from}, oldest first, followed by the running interval up to {@code now} (marked
     * partial) when {@code now} is later than the last sample: the current minute shows before it is closed.
     */
    public synchronized List<TimelinePoint> since(Instant from, Sample now) {
        List<TimelinePoint> out = new ArrayList<>();
        for (TimelinePoint p : points) {
            if (p.end().isAfter(from)) {
                out.add(p);
            }
        }
        if (now.at().isAfter(last.at())) {
            out.add(between(last, now, true));
        }
        return out;
    }

    private static TimelinePoint between(Sample before, Sample after, boolean partial) {
        return new TimelinePoint(before.at(), after.at(), after.gateway().since(before.gateway()),
                after.chat().since(before.chat()), partial);
    }
}
