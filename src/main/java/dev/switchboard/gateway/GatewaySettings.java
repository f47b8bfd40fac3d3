package dev.switchboard.gateway;

import java.time.Duration;
import java.util.List;

/**
 * Tuning of the aggregated endpoint.
 *
 * @param pageSize           tools per {@code tools/list} page
 * @param listTimeout        how long a listing waits for slow backends before leaving them out
 * @param maxBodyBytes       largest request body accepted
 * @param allowedOrigins     {@code Origin} values accepted; an entry without a port matches any port
 * @param sessionIdleTimeout client sessions unused this long are forgotten
 * @param keepAliveInterval  how often an open GET stream gets a comment so proxies keep it open
 * @param legacyHttpSse      whether 2024-11-05 is accepted (compatibility.legacyHttpSse)
 */
public record GatewaySettings(int pageSize, Duration listTimeout, long maxBodyBytes, List<String> allowedOrigins,
                              Duration sessionIdleTimeout, Duration keepAliveInterval, boolean legacyHttpSse) {

    public static final List<String> LOCAL_ORIGINS = List.of("http://localhost", "https://localhost",
            "http://127.0.0.1", "https://127.0.0.1", "http://[::1]", "https://[::1]");

    public GatewaySettings {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be at least 1");
        }
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("max body size must be positive");
        }
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    public static GatewaySettings defaults() {
        return new GatewaySettings(100, Duration.ofSeconds(10), 4L * 1024 * 1024, LOCAL_ORIGINS,
                Duration.ofMinutes(30), Duration.ofSeconds(15), false);
    }
}
