package dev.switchboard.backend.pool;

import java.util.Objects;

/** One user's connection to one registered server: servers are defined per user, so sessions are too. */
public record PoolKey(String userSubject, String serverId) {

    public PoolKey {
        Objects.requireNonNull(userSubject, "userSubject");
        Objects.requireNonNull(serverId, "serverId");
    }
}
