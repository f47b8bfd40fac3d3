package dev.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import dev.switchboard.chat.events.ConversationEvents;
import dev.switchboard.gateway.GatewayConfiguration;
import dev.switchboard.gateway.SharedSseStreams;
import dev.switchboard.policy.IdempotentResults;
import dev.switchboard.policy.PolicyConfiguration;
import dev.switchboard.policy.RateLimiter;
import dev.switchboard.security.SignInTallies;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import java.util.concurrent.TimeUnit;

/**
 * In cluster mode, the shared state of the other rooms lives in Hazelcast: these alternatives replace the rooms'
 * in-memory rate limiter, idempotent results, sign-in tallies and conversation events, and give the gateway the
 * {@code /mcp} streams every member shares (on a single instance this bean is vetoed, see
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

    @Inject
    GatewayConfiguration gateway;

    /** Where the shared streams' readers hand items over: a container thread, never a Hazelcast one. */
    @Resource
    ManagedExecutorService executor;

    @Resource
    ManagedScheduledExecutorService scheduler;

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

    @Produces
    @Singleton
    SharedSseStreams sseStreams() {
        return new HazelcastSseStreams(hazelcast(), gateway.replay(), executor);
    }

    @Produces
    @Singleton
    ConversationEvents conversationEvents() {
        HazelcastConversationEvents events = new HazelcastConversationEvents(hazelcast(), executor, System::currentTimeMillis);
        long every = Math.max(1, member.streamLimits().conversationKept().toSeconds() / 4);
        scheduler.scheduleAtFixedRate(events::touchWatched, every, every, TimeUnit.SECONDS);
        return events;
    }

    private HazelcastInstance hazelcast() {
        return member.instance();
    }
}
