package dev.switchboard.sql.dialect;

import java.time.Duration;

/**
 * The query dialect's limits and timings for one server: open dialect connections across every transport, requests per
 * minute and in flight per connection, largest message (transports enforce it, they see the bytes), and how often a
 * long query reports {@code query.progress}.
 */
public record DialectSettings(int maxConnections, int requestsPerMinute, int concurrentRequests, int maxMessageBytes,
                              Duration progressInterval) {

    public static final DialectSettings DEFAULTS = new DialectSettings(1000, 100, 10, 10 * 1024 * 1024, Duration.ofSeconds(5));

    public DialectSettings {
        if (maxConnections < 1 || requestsPerMinute < 1 || concurrentRequests < 1 || maxMessageBytes < 1) {
            throw new IllegalArgumentException("dialect limits must be positive: " + maxConnections + " connections, "
                    + requestsPerMinute + " per minute, " + concurrentRequests + " concurrent, " + maxMessageBytes + " bytes");
        }
    }
}
