package dev.switchboard.sql.dialect;

import jakarta.json.JsonObject;

import java.util.Map;

/** One client connection speaking the query dialect, over WebSocket or the TCP transport. */
public interface DialectChannel {

    /** Stable id of this connection, for logs and per-connection limits. */
    String id();

    /** Sends one message; thread-safe. */
    void send(JsonObject message);

    /** The server closes the connection (a limit reached, a shutdown) with a reason the client can read. */
    void close(String reason);

    /** State the handler keeps per connection (authenticated principal, protocol version, session, counters). */
    Map<String, Object> attributes();
}
