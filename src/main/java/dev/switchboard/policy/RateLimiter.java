package dev.switchboard.policy;

import java.time.Duration;

/**
 * Takes one permit from a named token bucket. {@link LocalRateLimiter} keeps buckets in this JVM; in cluster mode the
 * {@code cluster} room's implementation keeps them in Hazelcast, so a tenant's limit holds across all members.
 */
public interface RateLimiter {

    /** @param retryAfter how long until a permit is free again; zero when the permit was granted */
    record Decision(boolean granted, Duration retryAfter) {
    }

    /**
     * @param key   whose bucket: the tenant, or tenant and subject
     * @param limit the bucket's shape; a changed shape starts a fresh bucket
     */
    Decision tryAcquire(String key, RateLimit limit);
}
