package dev.switchboard.backend.pool;

import java.util.Map;

/**
 * Counters for metrics.
 *
 * @param connectionsByState how many pooled connections are in each state (every state present)
 * @param totalCalls         tool calls started since the pool was created
 * @param failedCalls        of those, calls that ended in an exception (a tool's {@code isError} result is not one)
 */
public record PoolStats(Map<ConnectionState, Integer> connectionsByState, long totalCalls, long failedCalls) {

    public PoolStats {
        connectionsByState = Map.copyOf(connectionsByState);
    }
}
