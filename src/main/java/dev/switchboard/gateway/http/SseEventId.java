package dev.switchboard.gateway.http;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An SSE event id of the gateway: {@code {stream}-{sequence}}. The stream number says which stream of the session
 * the event belongs to (0 is the GET stream, every request answered as SSE gets its own), so a {@code Last-Event-ID}
 * names the stream to resume and the position in it; ids are unique within the session.
 */
record SseEventId(int stream, long sequence) {

    private static final Pattern FORMAT = Pattern.compile("(\\d{1,9})-(\\d{1,18})");

    static Optional<SseEventId> parse(String text) {
        Matcher m = text == null ? null : FORMAT.matcher(text.strip());
        if (m == null || !m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new SseEventId(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2))));
    }

    @Override
    public String toString() {
        return stream + "-" + sequence;
    }
}
