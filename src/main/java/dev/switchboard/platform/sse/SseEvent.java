package dev.switchboard.platform.sse;

/**
 * One server-sent event.
 *
 * @param id    the event's {@code id}, or null
 * @param event the event type; {@code message} when the stream gave none
 * @param data  the data lines joined with newlines
 */
public record SseEvent(String id, String event, String data) {
}
