package dev.switchboard.platform.drain;

/**
 * Fired once when this member's drain is over: the work it admitted has finished ({@code idle}) or the grace ran out.
 * A cluster member leaves its cluster then, and not before, so the calls still running kept their shared state.
 */
public record Drained(boolean idle, long stillRunning) {
}
