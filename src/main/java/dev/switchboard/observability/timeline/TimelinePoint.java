package dev.switchboard.observability.timeline;

import java.time.Instant;

/**
 * What happened from {@code start} to {@code end}: one sampling interval, or, when {@code partial}, the interval
 * still running (from the last sample to the moment it was asked for).
 */
public record TimelinePoint(Instant start, Instant end, CallTotals gateway, CallTotals chat, boolean partial) {
}
