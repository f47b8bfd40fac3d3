package dev.switchboard.policy;

import io.github.bucket4j.Bandwidth;

import java.time.Duration;

/**
 * A token bucket: {@code requests} per {@code period} refilled steadily, at most {@code burst} at once; one bucket
 * for the tenant, or one per subject of the tenant.
 */
public record RateLimit(int requests, Duration period, int burst, boolean perSubject) {

    public RateLimit {
        if (requests < 1 || burst < 1 || period.isZero() || period.isNegative()) {
            throw new IllegalArgumentException("rate limit needs positive requests, period and burst");
        }
    }

    /** The bucket's shape for Bucket4j, wherever the bucket is kept. */
    public Bandwidth bandwidth() {
        return Bandwidth.builder().capacity(burst).refillGreedy(requests, period).build();
    }

    /** Names the shape within a bucket key: a changed shape is another bucket. */
    public String shapeKey() {
        return requests + "/" + period + "/" + burst;
    }

    /** {@code "second"} or {@code "minute"}, as the API writes it. */
    public String per() {
        return period.equals(Duration.ofMinutes(1)) ? "minute" : "second";
    }

    /** As the error message says it, e.g. {@code 3 per minute (burst 3)}. */
    public String describe() {
        return requests + " per " + per() + " (burst " + burst + ")" + (perSubject ? " per subject" : "");
    }
}
