package dev.switchboard.mcp.transport;

import java.time.Duration;

/**
 * How long a Streamable HTTP client waits before it reopens an event stream with {@code Last-Event-ID}: the server's
 * last {@code retry} value when it sent one (the protocol says to respect it), else a delay that starts at {@code first}
 * and grows by {@code factor} with each failed reopening up to {@code longest}. After {@code attempts} failed
 * reopenings in a row the stream is given up.
 */
record ReconnectBackoff(Duration first, double factor, Duration longest, int attempts) {

    /** As the official TypeScript SDK's client waits (1 s, growing by half, at most 30 s), with one more attempt. */
    static final ReconnectBackoff DEFAULT = new ReconnectBackoff(Duration.ofSeconds(1), 1.5, Duration.ofSeconds(30), 3);

    long delayMillis(int failedAttempts, long serverRetryMillis) {
        if (serverRetryMillis >= 0) {
            return serverRetryMillis;
        }
        return (long) Math.min(first.toMillis() * Math.pow(factor, failedAttempts), longest.toMillis());
    }

    boolean exhausted(int failedAttempts) {
        return failedAttempts >= attempts;
    }
}
