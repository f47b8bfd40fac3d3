package dev.switchboard.backend.connection;

/**
 * A caller's live connection to one server: {@code disconnected}, {@code connecting}, {@code connected} or
 * {@code error}, why it failed, and how many tools it lists (-1 while no list is cached).
 */
public record ConnectionStatus(String state, String lastError, int toolCount) {
}
