package dev.switchboard.gateway;

import dev.switchboard.security.CallerIdentity;
import dev.switchboard.backend.registry.McpServerChanged;
import dev.switchboard.security.CurrentUser;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The backends the aggregated endpoint serves a caller: the active servers shared in the caller's tenant. Every
 * POST to {@code /mcp} needs them, and reading them is a database transaction (a third of a {@code tools/call}'s
 * CPU in the gateway benchmark), so the answer is kept per caller identity (the registry query and the spec's
 * caller depend on nothing else). Any change to the registry made here drops every kept answer once its
 * transaction has ended; a change made by another instance shows after {@link #MAX_AGE} at the latest.
 */
@ApplicationScoped
public class SharedBackends {

    static final Duration MAX_AGE = Duration.ofSeconds(2);
    /** More callers than this within {@link #MAX_AGE} just start over: a bound, not an eviction policy. */
    private static final int MAX_CALLERS = 10_000;

    @Inject
    SharedBackendsQuery query;

    private final Map<CallerIdentity, Kept> kept = new ConcurrentHashMap<>();
    private final AtomicLong registryVersion = new AtomicLong();

    private record Kept(List<GatewayBackend> backends, long registryVersion, long readAtNanos) {
    }

    public List<GatewayBackend> of(CurrentUser caller) {
        CallerIdentity identity = CallerIdentity.of(caller);
        long version = registryVersion.get();
        long now = System.nanoTime();
        Kept answer = kept.get(identity);
        if (answer != null && answer.registryVersion() == version && now - answer.readAtNanos() < MAX_AGE.toNanos()) {
            return answer.backends();
        }
        // the version is taken before the read: a change committed during the read makes this answer stale at once
        List<GatewayBackend> backends = query.of(caller);
        if (kept.size() >= MAX_CALLERS) {
            kept.clear();
        }
        kept.put(identity, new Kept(backends, version, now));
        return backends;
    }

    /** After the change's transaction, so a read that starts now sees it. */
    void onServerChanged(@Observes(during = TransactionPhase.AFTER_COMPLETION) McpServerChanged change) {
        registryVersion.incrementAndGet();
        kept.clear();
    }
}
