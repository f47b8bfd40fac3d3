/**
 * Traces and figures across rooms: W3C trace context, log record fields, and the metrics timeline, which reads
 * the call figures of the rooms that make calls through their
 * {@link dev.switchboard.observability.timeline.CallTotalsSource} beans.
 * <p>
 * May use: {@code platform} (the allowed arrows of docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.observability;
