package dev.switchboard.policy;

import java.time.Duration;

/**
 * Takes one permit from a named token bucket. The in-process implementation keeps buckets in this JVM; a shared
 * one (Bucket4j over a database or Redis) can replace it so that instances share one limit.
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
