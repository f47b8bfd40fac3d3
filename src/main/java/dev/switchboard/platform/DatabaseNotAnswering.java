package dev.switchboard.platform;

import org.eclipse.microprofile.faulttolerance.ExecutionContext;
import org.eclipse.microprofile.faulttolerance.FallbackHandler;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.health.HealthCheckResponse;

/** The readiness check's answer when the database check timed out or too many ran at once: DOWN, saying which. */
public class DatabaseNotAnswering implements FallbackHandler<HealthCheckResponse> {

    @Override
    public HealthCheckResponse handle(ExecutionContext context) {
        Throwable failure = context.getFailure();
        String error = failure instanceof TimeoutException ? "the database did not answer within the check's timeout"
                : failure instanceof BulkheadException ? "too many database checks under way at once"
                : failure.getClass().getSimpleName() + ": " + failure.getMessage();
        return HealthCheckResponse.named(DatabaseReadinessCheck.NAME).down().withData("error", error).build();
    }
}
