package dev.switchboard.backend.connection;

/** A caller's live connection to one server: {@code disconnected}, {@code connecting}, {@code connected} or {@code error}. */
public record ConnectionStatus(String state, String lastError) {
}
