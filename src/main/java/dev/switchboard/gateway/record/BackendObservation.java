package dev.switchboard.gateway.record;

import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.backend.pool.ConnectionSnapshot;

/**
 * How one backend session stood when looked at: the pooled connection's state ({@code connected},
 * {@code connecting}, {@code disconnected}, {@code error}), the backend's own session id, the last error.
 */
public record BackendObservation(String serverId, String serverName, String state, String backendSessionId,
                                 String lastError) {

    private static final int MAX_ERROR = 1024;

    /** The caller's pooled connection to the server as it is now; {@code disconnected} when the pool has none. */
    public static BackendObservation of(BackendConnectionPool pool, String subject, String serverId, String serverName) {
        return pool.connection(subject, serverId).map(s -> of(s, serverName))
                .orElse(new BackendObservation(serverId, serverName, "disconnected", null, null));
    }

    private static BackendObservation of(ConnectionSnapshot snapshot, String serverName) {
        String error = snapshot.lastError();
        return new BackendObservation(snapshot.key().serverId(), serverName, snapshot.state().name().toLowerCase(),
                snapshot.backendSessionId(), error == null || error.length() <= MAX_ERROR ? error : error.substring(0, MAX_ERROR));
    }
}
