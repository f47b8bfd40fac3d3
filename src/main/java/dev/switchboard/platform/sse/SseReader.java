package dev.switchboard.platform.sse;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Parses a {@code text/event-stream} as the HTML spec describes: multi-line {@code data}, {@code event},
 * {@code id}, {@code retry}, comments, and events dispatched on a blank line.
 */
public final class SseReader implements Closeable {

    /** {@link #retryMillis()} when the stream gave no reconnection time. */
    public static final long NO_RETRY = -1;

    private final BufferedReader reader;
    /** The id of the event being read; it becomes {@link #lastEventId} only once that event is complete. */
    private String idBuffer;
    private String lastEventId;
    private long retryMillis = NO_RETRY;

    public SseReader(InputStream in) {
        this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /**
     * Reads the stream that continues {@code previous} (null: none) after a reconnection: its last event id and
     * reconnection time carry over until this stream sets its own, as an EventSource's do.
     */
    public SseReader(InputStream in, SseReader previous) {
        this(in);
        if (previous != null) {
            idBuffer = previous.lastEventId;
            lastEventId = previous.lastEventId;
            retryMillis = previous.retryMillis;
        }
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
                lastEventId = idBuffer;
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
                        // an empty id resets it: a reconnection then sends no Last-Event-ID
                        idBuffer = value.isEmpty() ? null : value;
                    }
                }
                case "retry" -> {
                    long millis = digits(value);
                    if (millis >= 0) {
                        retryMillis = millis;
                    }
                }
                default -> {
                    // unknown fields are ignored
                }
            }
        }
        // an event not terminated by a blank line is incomplete and, per the spec, discarded (its id too)
        return null;
    }

    private String readLine(Runnable beforeWaiting) throws IOException {
        if (beforeWaiting != null && !reader.ready()) {
            beforeWaiting.run();
        }
        return reader.readLine();
    }

    /** The id of the last complete event (one with or without data), for {@code Last-Event-ID}; null if none had one. */
    public String lastEventId() {
        return lastEventId;
    }

    /** The last reconnection time the stream set with a {@code retry} field, or {@link #NO_RETRY}. */
    public long retryMillis() {
        return retryMillis;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }

    /** The value as a decimal number of milliseconds, or -1 if it is not only ASCII digits (the spec ignores it then). */
    private static long digits(String value) {
        if (value.isEmpty() || value.length() > 18) {
            return -1;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
        }
        return Long.parseLong(value);
    }
}
