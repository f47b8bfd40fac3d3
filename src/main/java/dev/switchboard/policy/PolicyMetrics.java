package dev.switchboard.policy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/** Policy refusals on {@code /metrics}, by tenant: denials by the allowlists and refusals by the rate limit. */
@ApplicationScoped
public class PolicyMetrics {

    @Inject
    MetricRegistry registry;

    public void denied(String tenant) {
        registry.counter("switchboard_policy_denials", new Tag("tenant", tenant)).inc();
    }

    public void rateLimited(String tenant) {
        registry.counter("switchboard_rate_limited", new Tag("tenant", tenant)).inc();
    }

    public void retried(String tenant) {
        registry.counter("switchboard_gateway_retries", new Tag("tenant", tenant)).inc();
    }
}
