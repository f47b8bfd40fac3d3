package dev.switchboard.gateway;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The gateway's settings from MicroProfile Config. */
@ApplicationScoped
public class GatewayConfiguration {

    @Inject
    @ConfigProperty(name = "switchboard.gateway.page-size", defaultValue = "100")
    int pageSize;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.list-timeout", defaultValue = "PT10S")
    Duration listTimeout;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.max-body-bytes", defaultValue = "4194304")
    long maxBodyBytes;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.allowed-origins",
            defaultValue = "http://localhost,https://localhost,http://127.0.0.1,https://127.0.0.1,http://[::1],https://[::1]")
    List<String> allowedOrigins;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.session-idle-timeout", defaultValue = "PT30M")
    Duration sessionIdleTimeout;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.keep-alive-interval", defaultValue = "PT15S")
    Duration keepAliveInterval;

    /** The governance rules' own name for the flag. */
    @Inject
    @ConfigProperty(name = "compatibility.legacyHttpSse", defaultValue = "false")
    boolean legacyHttpSse;

    /** The same flag under the name whose environment variable is SWITCHBOARD_COMPATIBILITY_LEGACY_HTTP_SSE; wins when set. */
    @Inject
    @ConfigProperty(name = "switchboard.compatibility.legacy-http-sse")
    Optional<Boolean> legacyHttpSseSetting;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.replay-events", defaultValue = "100")
    int replayEvents;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.replay-streams", defaultValue = "16")
    int replayStreams;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.sse-retry", defaultValue = "PT1S")
    Duration sseRetry;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.outside-request-wait", defaultValue = "PT10S")
    Duration outsideRequestWait;

    /** How long a backend's {@code roots/list} outside any request waits for the client's answer. */
    public Duration outsideRequestWait() {
        return outsideRequestWait;
    }

    public StreamReplay replay() {
        return new StreamReplay(replayEvents, replayStreams, sseRetry);
    }

    public GatewaySettings settings() {
        return new GatewaySettings(pageSize, listTimeout, maxBodyBytes, allowedOrigins, sessionIdleTimeout,
                keepAliveInterval, legacyHttpSseSetting.orElse(legacyHttpSse));
    }
}
