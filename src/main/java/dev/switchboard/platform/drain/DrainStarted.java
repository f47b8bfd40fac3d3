package dev.switchboard.platform.drain;

import java.time.Duration;

/**
 * Fired once when this member starts to stop: rooms holding open streams end them, telling clients to come back after
 * {@code retry} (an SSE {@code retry:} field), so they reconnect through the load balancer to another member.
 */
public record DrainStarted(String reason, Duration retry) {
}
