package dev.switchboard.backend.access;

import dev.switchboard.backend.pool.BackendSpecSource;

/**
 * A registered server as a backend call reaches it, whoever calls (the gateway's routers, the chat loop).
 */
public interface BackendTarget {

    /** The gateway-facing backend name ({@code BackendNames}): errors, guards and metrics name the backend by it. */
    String name();

    /** The registry id: it keys the backend's breaker and bulkhead, so a renamed server keeps their state. */
    String serverId();

    /**
     * The pool's server id, which keys the caller's pooled connection: the registry id, or, for a chat run's own
     * stdio process in its workspace, {@code <id>@<workspace>}.
     */
    default String poolId() {
        return serverId();
    }

    /** Decrypts the connection details when the pool has to connect. */
    BackendSpecSource spec();
}
