package dev.switchboard.backend.access;

import dev.switchboard.backend.connection.BackendConnections;
import dev.switchboard.observability.TraceContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The one way a backend call is made, for the gateway's routers and the chat loop alike: through the caller's pooled
 * backend session ({@link PooledBackendAccess}), behind the backend's breaker and bulkhead
 * ({@link ResilientBackendAccess}, the guards shared by every caller), carrying a child of the caller's trace
 * ({@link TracedBackendAccess}). What each caller counts around its calls (the gateway's and the chat's metrics, the
 * audit trail) stays with that caller.
 */
@ApplicationScoped
public class BackendAccesses {

    @Inject
    BackendConnections connections;

    @Inject
    BackendGuards guards;

    /** The backends as {@code subject} reaches them, every call carrying a child of {@code trace}. */
    public BackendAccess of(String subject, TraceContext trace) {
        return new TracedBackendAccess(new ResilientBackendAccess(pooled(subject), guards::of), trace);
    }

    /**
     * The caller's pooled sessions alone, without breaker or trace: a chat run's setup lists the assistant's tools
     * this way, as it always has, so a server that cannot list contributes no tools without counting against the
     * breaker its tool calls pass.
     */
    public BackendAccess pooled(String subject) {
        return new PooledBackendAccess(connections.pool(), subject);
    }
}
