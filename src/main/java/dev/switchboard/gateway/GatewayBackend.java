package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendTarget;
import dev.switchboard.backend.pool.BackendSpecSource;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One backend as the aggregated endpoint sees it.
 *
 * @param name          the gateway-facing backend name (sanitised, unique among the caller's backends)
 * @param serverId      the registry id, which keys the pooled connection
 * @param disabledTools tools of this backend the gateway neither lists nor calls
 * @param timeout       the server's own request timeout
 * @param spec          decrypts the connection details when the pool has to connect
 */
public record GatewayBackend(String name, String serverId, Set<String> disabledTools, Duration timeout,
                             BackendSpecSource spec) implements BackendTarget {

    public GatewayBackend {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(serverId, "serverId");
        disabledTools = Set.copyOf(disabledTools);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(spec, "spec");
    }

    /** The backend of this gateway name among a caller's backends. */
    public static Optional<GatewayBackend> named(List<GatewayBackend> backends, String name) {
        return backends.stream().filter(b -> b.name().equals(name)).findFirst();
    }
}
