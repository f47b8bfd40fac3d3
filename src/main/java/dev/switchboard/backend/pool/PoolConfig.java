package dev.switchboard.backend.pool;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of the backend connection pool; defaults from the MCP client system's {@code MCP_CLIENT_CONFIG}.
 *
 * @param connectTimeout deadline for connect + initialize
 * @param toolCacheTtl   how long a backend's tool list is reused before {@code tools/list} is asked again
 * @param idleTimeout    connections unused this long are closed by {@link BackendConnectionPool#reapIdle}
 * @param maxToolRounds  most tool-call rounds the agent loop may run per answer (read by the chat layer)
 */
public record PoolConfig(Duration connectTimeout, Duration toolCacheTtl, Duration idleTimeout, int maxToolRounds) {

    public PoolConfig {
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(toolCacheTtl, "toolCacheTtl");
        requirePositive(idleTimeout, "idleTimeout");
        if (maxToolRounds < 1) {
            throw new IllegalArgumentException("maxToolRounds must be at least 1");
        }
    }

    public static PoolConfig defaults() {
        return new PoolConfig(Duration.ofSeconds(30), Duration.ofMinutes(5), Duration.ofMinutes(30), 20);
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }
}
