package dev.switchboard.gateway.http;

import java.util.Locale;

/**
 * What a client accepts as an answer to a POST: JSON, an SSE stream, or both (the spec asks clients for both).
 * A missing header or a wildcard accepts both.
 */
record AcceptHeader(boolean json, boolean eventStream) {

    static AcceptHeader parse(String header) {
        if (header == null || header.isBlank()) {
            return new AcceptHeader(true, true);
        }
        String h = header.toLowerCase(Locale.ROOT);
        boolean any = h.contains("*/*");
        return new AcceptHeader(any || h.contains("application/json") || h.contains("application/*"),
                any || h.contains("text/event-stream") || h.contains("text/*"));
    }

    boolean acceptsNothingWeSend() {
        return !json && !eventStream;
    }
}
