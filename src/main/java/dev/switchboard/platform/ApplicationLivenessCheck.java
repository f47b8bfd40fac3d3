package dev.switchboard.platform;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/** Live while the JVM has headroom: a heap more than 95% full after collection means it should be restarted. */
@Liveness
@ApplicationScoped
public class ApplicationLivenessCheck implements HealthCheck {

    private static final double MAX_HEAP_USE = 0.95;

    @Override
    public HealthCheckResponse call() {
        Runtime runtime = Runtime.getRuntime();
        long used = runtime.totalMemory() - runtime.freeMemory();
        double share = (double) used / runtime.maxMemory();
        return HealthCheckResponse.named("heap")
                .status(share < MAX_HEAP_USE)
                .withData("usedMiB", used / (1024 * 1024))
                .withData("maxMiB", runtime.maxMemory() / (1024 * 1024))
                .build();
    }
}
