package dev.switchboard.observability.timeline;

/**
 * Calls of one kind counted from start-up (the metrics are cumulative), or, as the difference of two of those, in
 * one interval: how many were made, how many failed, and how many were timed and for how long in all.
 *
 * @param calls      calls made
 * @param errors     calls that failed (a JSON-RPC error, the tool's own error result, an unreachable server)
 * @param timed      calls whose duration was recorded
 * @param timedNanos their durations added up
 */
public record CallTotals(long calls, long errors, long timed, long timedNanos) {

    public static final CallTotals NONE = new CallTotals(0, 0, 0, 0);

    public CallTotals {
        if (calls < 0 || errors < 0 || timed < 0 || timedNanos < 0) {
            throw new IllegalArgumentException("call totals cannot be negative: " + calls + ", " + errors + ", " + timed + ", " + timedNanos);
        }
    }

    /**
     * What happened between {@code before} and these totals. A figure that went down (a metric removed from the
     * registry and registered again) counts as nothing happened rather than as negative calls.
     */
    public CallTotals since(CallTotals before) {
        return new CallTotals(Math.max(0, calls - before.calls), Math.max(0, errors - before.errors),
                Math.max(0, timed - before.timed), Math.max(0, timedNanos - before.timedNanos));
    }

    public CallTotals plus(CallTotals other) {
        return new CallTotals(calls + other.calls, errors + other.errors, timed + other.timed, timedNanos + other.timedNanos);
    }

    /** The mean duration in milliseconds, or null when no call was timed (no call is not a latency of zero). */
    public Double meanMillis() {
        return timed == 0 ? null : timedNanos / (double) timed / 1_000_000.0;
    }
}
