package dev.switchboard.chat;

import dev.switchboard.backend.connection.BackendConnections;
import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.backend.registry.McpServerChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Closes the per-session processes of a stdio server that was edited or deleted ({@link ServerRoute}); the pool
 * closes the ordinary connections itself, and knows nothing of sessions.
 */
@ApplicationScoped
public class SessionProcessEviction {

    @Inject
    BackendConnections connections;

    void onServerChanged(@Observes McpServerChanged change) {
        String prefix = String.valueOf(change.serverId()) + ServerRoute.SESSION_SEPARATOR;
        BackendConnectionPool pool = connections.pool();
        pool.connections().stream().map(c -> c.key().serverId()).filter(id -> id.startsWith(prefix)).distinct()
                .forEach(pool::evict);
    }
}
