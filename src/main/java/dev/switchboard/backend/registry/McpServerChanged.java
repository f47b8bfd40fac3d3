package dev.switchboard.backend.registry;

/** CDI event: a server was edited or deleted, so live connections to it must be dropped. */
public record McpServerChanged(long serverId, boolean deleted) {
}
