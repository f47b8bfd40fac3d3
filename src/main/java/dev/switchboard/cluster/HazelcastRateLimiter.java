package dev.switchboard.cluster;

import com.hazelcast.map.IMap;
import dev.switchboard.policy.RateLimit;
import dev.switchboard.policy.RateLimiter;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.grid.hazelcast.Bucket4jHazelcast;

import java.time.Duration;

/**
 * Token buckets kept in Hazelcast through Bucket4j's own integration: taking a permit is one entry processor run on
 * the member owning the bucket, so every member draws from the same bucket. A bucket full again for a while is
 * dropped: a new one is the same.
 */
final class HazelcastRateLimiter implements RateLimiter {

    private static final Duration KEEP_FULL_BUCKETS = Duration.ofSeconds(10);

    private final ProxyManager<String> buckets;

    HazelcastRateLimiter(IMap<String, byte[]> map) {
        buckets = Bucket4jHazelcast.entryProcessorBasedBuilder(map)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_FULL_BUCKETS))
                .build();
    }

    @Override
    public Decision tryAcquire(String key, RateLimit limit) {
        BucketConfiguration shape = BucketConfiguration.builder().addLimit(limit.bandwidth()).build();
        ConsumptionProbe probe = buckets.builder().build(key + "\u0000" + limit.shapeKey(), () -> shape)
                .tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? new Decision(true, Duration.ZERO)
                : new Decision(false, Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }
}
