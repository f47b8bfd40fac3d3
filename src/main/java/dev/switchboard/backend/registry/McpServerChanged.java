package dev.switchboard.backend.registry;

/**
 * CDI event: a server was added, edited or deleted, so live connections to it must be dropped and lists of servers
 * read before are stale.
 */
public record McpServerChanged(long serverId, boolean deleted) {
}
