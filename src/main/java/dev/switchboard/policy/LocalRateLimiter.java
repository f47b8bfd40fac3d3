package dev.switchboard.policy;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bucket4j token buckets in this JVM, one per key and limit shape. Buckets of keys unused for longer than it takes
 * them to refill completely are dropped when the map grows large: such a bucket is full, so a new one is the same.
 */
public final class LocalRateLimiter implements RateLimiter {

    private static final int SWEEP_ABOVE = 10_000;

    private record Key(String key, RateLimit limit) {
    }

    private static final class Entry {
        final Bucket bucket;
        volatile long lastUsedNanos;

        Entry(Bucket bucket, long now) {
            this.bucket = bucket;
            this.lastUsedNanos = now;
        }
    }

    private final TimeMeter clock;
    private final Map<Key, Entry> buckets = new ConcurrentHashMap<>();

    public LocalRateLimiter() {
        this(TimeMeter.SYSTEM_NANOTIME);
    }

    /** @param clock the time buckets refill by (tests move it by hand) */
    public LocalRateLimiter(TimeMeter clock) {
        this.clock = clock;
    }

    @Override
    public Decision tryAcquire(String key, RateLimit limit) {
        long now = clock.currentTimeNanos();
        if (buckets.size() > SWEEP_ABOVE) {
            sweep(now);
        }
        Entry entry = buckets.computeIfAbsent(new Key(key, limit), k -> new Entry(newBucket(limit), now));
        entry.lastUsedNanos = now;
        ConsumptionProbe probe = entry.bucket.tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? new Decision(true, Duration.ZERO)
                : new Decision(false, Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    /** Buckets held, for tests. */
    int size() {
        return buckets.size();
    }

    private Bucket newBucket(RateLimit limit) {
        return Bucket.builder().addLimit(limit.bandwidth()).withCustomTimePrecision(clock).build();
    }

    private void sweep(long now) {
        buckets.entrySet().removeIf(e -> {
            RateLimit limit = e.getKey().limit();
            long fullAfter = limit.period().toNanos() * ((limit.burst() + limit.requests() - 1) / limit.requests());
            return now - e.getValue().lastUsedNanos > fullAfter;
        });
    }
}
