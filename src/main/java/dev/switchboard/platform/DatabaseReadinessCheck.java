package dev.switchboard.platform;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import javax.sql.DataSource;
import java.sql.Connection;

/** Ready when the database answers within two seconds. */
@Readiness
@ApplicationScoped
public class DatabaseReadinessCheck implements HealthCheck {

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("database");
        try (Connection connection = dataSource.getConnection()) {
            boolean valid = connection.isValid(2);
            return response.status(valid).withData("product", connection.getMetaData().getDatabaseProductName()).build();
        } catch (Exception e) {
            return response.down().withData("error", e.getClass().getSimpleName() + ": " + e.getMessage()).build();
        }
    }
}
