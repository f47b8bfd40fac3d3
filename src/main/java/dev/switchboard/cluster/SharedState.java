package dev.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import dev.switchboard.policy.IdempotentResults;
import dev.switchboard.policy.PolicyConfiguration;
import dev.switchboard.policy.RateLimiter;
import dev.switchboard.security.SignInTallies;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

/**
 * In cluster mode, the shared state of the other rooms lives in Hazelcast: these alternatives replace the rooms'
 * in-memory rate limiter, idempotent results and sign-in tallies (on a single instance this bean is vetoed, see
 * {@link ClusterModeExtension}).
 */
@Alternative
@Priority(Interceptor.Priority.APPLICATION)
@ApplicationScoped
public class SharedState {

    @Inject
    HazelcastMember member;

    @Inject
    PolicyConfiguration policy;

    @Produces
    @Singleton
    RateLimiter rateLimiter() {
        return new HazelcastRateLimiter(hazelcast().getMap(MemberConfig.RATE_LIMIT_BUCKETS));
    }

    @Produces
    @Singleton
    IdempotentResults idempotentResults() {
        return new HazelcastIdempotentResults(hazelcast().getMap(MemberConfig.IDEMPOTENCY_KEYS), policy.idempotencyWindow(),
                policy.idempotencyWait(), policy.idempotencyCapacity() > 0 && !policy.idempotencyWindow().isZero());
    }

    @Produces
    @Singleton
    SignInTallies signInTallies() {
        return new HazelcastSignInTallies(hazelcast().getMap(MemberConfig.SIGN_IN_TALLIES));
    }

    private HazelcastInstance hazelcast() {
        return member.instance();
    }
}
