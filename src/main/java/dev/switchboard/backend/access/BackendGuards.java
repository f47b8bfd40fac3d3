package dev.switchboard.backend.access;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link BackendGuard} per registered server (keyed by its id, so a renamed server keeps its state), made on its
 * first call with the settings of its gateway name at that time, and published on {@code /metrics}.
 */
@ApplicationScoped
public class BackendGuards {

    @Inject
    Config config;

    @Inject
    MetricRegistry metrics;

    private final Map<String, BackendGuard> guards = new ConcurrentHashMap<>();

    /** The guard of a registered server, whoever calls it (the gateway, the chat loop). */
    public BackendGuard of(BackendTarget backend) {
        return guards.computeIfAbsent(backend.serverId(), id -> published(id,
                new BackendGuard(backend.name(), ResilienceSettings.of(config, backend.name()), Clock.systemUTC())));
    }

    /** Tagged by name for people and by id because names are unique only among one tenant's servers. */
    private BackendGuard published(String serverId, BackendGuard guard) {
        Tag[] tag = {new Tag("backend", guard.backend()), new Tag("server", serverId)};
        // 0 closed, 1 open, 2 half-open: one number a dashboard can colour
        metrics.gauge("switchboard_backend_breaker_state", guard, g -> switch (g.state()) {
            case OPEN, FORCED_OPEN -> 1;
            case HALF_OPEN -> 2;
            default -> 0;
        }, tag);
        metrics.gauge("switchboard_backend_breaker_rejected", guard, BackendGuard::breakerRejections, tag);
        metrics.gauge("switchboard_backend_bulkhead_in_flight", guard, BackendGuard::callsInFlight, tag);
        metrics.gauge("switchboard_backend_bulkhead_max", guard, BackendGuard::maxConcurrentCalls, tag);
        metrics.gauge("switchboard_backend_bulkhead_rejected", guard, BackendGuard::bulkheadRejections, tag);
        return guard;
    }
}
