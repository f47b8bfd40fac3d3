package dev.switchboard.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

/** Reads SSE events off a response body; comments are skipped. */
public final class SseEvents implements AutoCloseable {

    /** One SSE event as read off the wire. */
    public record Event(String id, String retry, String data) {
        public JsonObject json() {
            try (var reader = Json.createReader(new StringReader(data))) {
                return reader.readObject();
            }
        }
    }

    private final InputStream body;
    private final BufferedReader lines;

    public SseEvents(InputStream body) {
        this.body = body;
        this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    }

    /** The next event, or null when the stream ended. */
    public Event next() throws IOException {
        String id = null;
        String retry = null;
        StringBuilder data = null;
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null) {
                    return new Event(id, retry, data.toString());
                }
                id = null;
                retry = null;
            } else if (line.startsWith("id:")) {
                id = line.substring(3).strip();
            } else if (line.startsWith("retry:")) {
                retry = line.substring(6).strip();
            } else if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
