package dev.switchboard.policy;

/**
 * What an administrator says about the tools a pattern names: whether a failed call may be retried at all and how
 * risky the tool is. Tools no rule names are {@code retryAllowed = false}, {@link Risk#HIGH}: backend annotations
 * ({@code readOnlyHint}, {@code idempotentHint}) never stand in for this decision.
 */
public record ToolRule(ToolPattern tool, boolean retryAllowed, Risk risk) {

    public static final ToolRule NONE = new ToolRule(new ToolPattern("*"), false, Risk.HIGH);

    /** Retried only when marked so and rated low risk; the request must also carry an idempotency key. */
    public boolean permitsRetry() {
        return retryAllowed && risk == Risk.LOW;
    }
}
