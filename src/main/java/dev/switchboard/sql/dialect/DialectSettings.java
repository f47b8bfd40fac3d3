package dev.switchboard.sql.dialect;

import java.time.Duration;

/**
 * Seed 000's limits and timings for one server: requests per minute and in flight per connection, largest message
 * (transports enforce it, they see the bytes), and how often a long query reports {@code query.progress}.
 */
public record DialectSettings(int requestsPerMinute, int concurrentRequests, int maxMessageBytes, Duration progressInterval) {

    public static final DialectSettings SEED = new DialectSettings(100, 10, 10 * 1024 * 1024, Duration.ofSeconds(5));
}
