package dev.switchboard.platform;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import javax.sql.DataSource;
import java.sql.Connection;
import java.time.temporal.ChronoUnit;

/**
 * Ready when the database answers. Under MicroProfile Fault Tolerance: a check that has no answer within 3 s
 * ({@code @Timeout}; a pool waiting for a free connection would otherwise hold the probe for its 10 s connection
 * timeout) or that finds 2 checks already under way ({@code @Bulkhead}: a storm of probes must not take the pool's
 * connections from requests) answers DOWN at once through {@link DatabaseNotAnswering}. Settings:
 * {@code dev.switchboard.platform.DatabaseReadinessCheck/call/Timeout/value}, {@code .../Bulkhead/value}.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadinessCheck implements HealthCheck {

    static final String NAME = "database";

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Override
    @Timeout(value = 3, unit = ChronoUnit.SECONDS)
    @Bulkhead(2)
    @Fallback(DatabaseNotAnswering.class)
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named(NAME);
        try (Connection connection = dataSource.getConnection()) {
            boolean valid = connection.isValid(2);
            return response.status(valid).withData("product", connection.getMetaData().getDatabaseProductName()).build();
        } catch (Exception e) {
            return response.down().withData("error", e.getClass().getSimpleName() + ": " + e.getMessage()).build();
        }
    }
}
