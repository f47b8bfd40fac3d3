package dev.switchboard.cluster;

import java.time.Duration;

/**
 * How much of the shared streams the members keep, and for how long (from the rooms' own settings).
 *
 * @param sseEvents          events kept per {@code /mcp} stream ({@code switchboard.gateway.replay-events})
 * @param sseKept            how long a {@code /mcp} stream's events and what is known of a session's streams are kept
 *                           unused: the session idle timeout, beyond which the session is ended anyway
 * @param conversationEvents events kept per conversation ({@code switchboard.chat.events.replay-size})
 * @param conversationKept   how long a conversation's events are kept ({@code switchboard.chat.events.retention})
 */
record StreamLimits(int sseEvents, Duration sseKept, int conversationEvents, Duration conversationKept) {
}
