package dev.switchboard.backend.connection;

import dev.switchboard.backend.pool.ConnectionState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import java.util.Locale;

/** Publishes the pool's figures on {@code /metrics}: connections by state, calls and failed calls. */
@ApplicationScoped
public class PoolMetrics {

    @Inject
    MetricRegistry registry;

    @Inject
    BackendConnections connections;

    void register(@Observes @Initialized(ApplicationScoped.class) Object started) {
        for (ConnectionState state : ConnectionState.values()) {
            registry.gauge("switchboard_pool_connections", connections,
                    c -> c.stats().connectionsByState().getOrDefault(state, 0),
                    new Tag("state", state.name().toLowerCase(Locale.ROOT)));
        }
        registry.gauge("switchboard_pool_calls", connections, c -> c.stats().totalCalls());
        registry.gauge("switchboard_pool_failed_calls", connections, c -> c.stats().failedCalls());
    }
}
