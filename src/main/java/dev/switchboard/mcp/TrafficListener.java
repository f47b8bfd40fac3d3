package dev.switchboard.mcp;

import jakarta.json.JsonObject;

/**
 * Sees every message a peer sends and receives, in order, before it reaches the wire or the caller.
 * Used for auditing and for schema checks in tests; implementations must be quick and must not throw.
 */
public interface TrafficListener {

    TrafficListener NONE = new TrafficListener() {
    };

    default void outbound(JsonObject message) {
    }

    default void inbound(JsonObject message) {
    }
}
