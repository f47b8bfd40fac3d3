package dev.switchboard.gateway;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.List;

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

    @Inject
    @ConfigProperty(name = "compatibility.legacyHttpSse", defaultValue = "false")
    boolean legacyHttpSse;

    public GatewaySettings settings() {
        return new GatewaySettings(pageSize, listTimeout, maxBodyBytes, allowedOrigins, sessionIdleTimeout,
                keepAliveInterval, legacyHttpSse);
    }
}
