package dev.switchboard.mcp.transport;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Parses a {@code text/event-stream} as the HTML spec describes: multi-line {@code data}, {@code event},
 * {@code id}, comments, and events dispatched on a blank line.
 */
public final class SseReader implements Closeable {

    private final BufferedReader reader;
    private String lastEventId;

    public SseReader(InputStream in) {
        this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /** The next event with data, or null at the end of the stream. */
    public SseEvent next() throws IOException {
        return next(null);
    }

    /**
     * The next event with data, or null at the end of the stream.
     *
     * @param beforeWaiting runs whenever nothing is buffered at the start of a line, i.e. before the read would wait
     *                      for the sender (null: nothing)
     */
    public SseEvent next(Runnable beforeWaiting) throws IOException {
        StringBuilder data = null;
        String event = null;
        String line;
        while ((line = readLine(beforeWaiting)) != null) {
            if (line.isEmpty()) {
                if (data != null) {
                    return new SseEvent(lastEventId, event == null ? "message" : event, data.toString());
                }
                event = null;
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                case "event" -> event = value;
                case "id" -> {
                    if (!value.contains("\0")) {
                        lastEventId = value;
                    }
                }
                default -> {
                    // "retry" and unknown fields do not affect how we read messages
                }
            }
        }
        // an event not terminated by a blank line is incomplete and, per the spec, discarded
        return null;
    }

    private String readLine(Runnable beforeWaiting) throws IOException {
        if (beforeWaiting != null && !reader.ready()) {
            beforeWaiting.run();
        }
        return reader.readLine();
    }

    /** The id of the last event seen, for {@code Last-Event-ID}. */
    public String lastEventId() {
        return lastEventId;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
