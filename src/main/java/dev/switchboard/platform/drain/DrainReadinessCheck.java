package dev.switchboard.platform.drain;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * DOWN from the moment this member starts to drain, so a load balancer sends it nothing new. Its data: the {@code /mcp}
 * calls and chat runs running now ({@code inFlight}) and admitted since start ({@code admitted}).
 */
@Readiness
@ApplicationScoped
public class DrainReadinessCheck implements HealthCheck {

    @Inject
    Drain drain;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("drain").status(!drain.draining())
                .withData("draining", drain.draining()).withData("inFlight", drain.running())
                .withData("admitted", drain.admitted()).build();
    }
}
