package dev.switchboard.policy;

import java.time.Duration;
import java.util.Optional;

/**
 * A tenant policy's verdict on one call before it runs (the gateway's governance error model): the allowlists, and a permit from the rate
 * limit. Every way a call reaches a tool asks here (the gateway's policy layer and the chat loop), so a refusal is
 * worded, counted and limited alike, and the two draw permits from the same buckets.
 */
public final class CallAdmission {

    /** The audit decisions of a call the policy let through and of its two refusals. */
    public static final String ALLOW = "allow";
    public static final String DENY = "deny";
    public static final String RATE_LIMITED = "rate_limited";

    /**
     * Why a call may not run.
     *
     * @param decision   {@link #DENY} or {@link #RATE_LIMITED}
     * @param reason     what the caller reads after the code, e.g. {@code tool 'x' is not in the allowlist of tenant 'acme'}
     * @param retryAfter when the bucket has a permit again; null for a denial
     */
    public record Refusal(String decision, String reason, Duration retryAfter) {

        public boolean rateLimited() {
            return RATE_LIMITED.equals(decision);
        }

        /** The code clients match on: {@code policy_denied} or {@code rate_limited}. */
        public String code() {
            return rateLimited() ? "rate_limited" : "policy_denied";
        }

        /** {@code code: reason}, the message of the gateway's error and of the chat loop's tool result. */
        public String message() {
            return code() + ": " + reason;
        }

        /** At least 1 ms, so a refusal never says "retry now"; 0 for a denial. */
        public long retryAfterMillis() {
            return millis(retryAfter);
        }

        /** Whole seconds, rounded up. */
        public long retryAfterSeconds() {
            return seconds(retryAfter);
        }

        private static long millis(Duration wait) {
            return wait == null ? 0 : Math.max(1, wait.toMillis());
        }

        private static long seconds(Duration wait) {
            return (millis(wait) + 999) / 1000;
        }
    }

    private final RateLimiter limiter;
    private final PolicyMetrics metrics;

    public CallAdmission(RateLimiter limiter, PolicyMetrics metrics) {
        this.limiter = limiter;
        this.metrics = metrics;
    }

    /** Refused when the tool (as {@code backend__tool}) is outside the tenant's allowlist; counted as a denial. */
    public Optional<Refusal> tool(TenantPolicy policy, String tenant, String exposedTool) {
        if (policy.allowsTool(exposedTool)) {
            return Optional.empty();
        }
        return Optional.of(denied(tenant, "tool '" + exposedTool + "' is not in the allowlist of tenant '" + tenant + "'"));
    }

    /** Refused when the tenant may not use the prompts and resources of {@code backend}; {@code kind} names what was asked for. */
    public Optional<Refusal> content(TenantPolicy policy, String tenant, String kind, String backend) {
        if (policy.allowsContentOf(backend)) {
            return Optional.empty();
        }
        return Optional.of(denied(tenant, "tenant '" + tenant + "' may not use the " + kind + "s of backend '" + backend + "'"));
    }

    /**
     * Takes one permit from the tenant's bucket (or the subject's, when the limit is per subject); refused when there
     * is none, with the time until there is. A tenant without a limit always gets one.
     */
    public Optional<Refusal> permit(TenantPolicy policy, String tenant, String subject) {
        RateLimit limit = policy.rateLimit();
        if (limit == null) {
            return Optional.empty();
        }
        RateLimiter.Decision decision = limiter.tryAcquire(limit.perSubject() ? tenant + "\u0000" + subject : tenant, limit);
        if (decision.granted()) {
            return Optional.empty();
        }
        metrics.rateLimited(tenant);
        return Optional.of(new Refusal(RATE_LIMITED, (limit.perSubject() ? "subject '" + subject + "' of tenant '" : "tenant '")
                + tenant + "' is over its limit of " + limit.describe() + "; retry after "
                + Refusal.seconds(decision.retryAfter()) + " s", decision.retryAfter()));
    }

    private Refusal denied(String tenant, String reason) {
        metrics.denied(tenant);
        return new Refusal(DENY, reason, null);
    }
}
