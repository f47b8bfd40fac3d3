package dev.switchboard.testing;

import dev.switchboard.mcp.TrafficListener;
import jakarta.json.JsonObject;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records every message a connector sends and receives, so tests can inspect and schema-check them. */
public final class RecordingTraffic implements TrafficListener {

    private final List<JsonObject> outbound = new CopyOnWriteArrayList<>();
    private final List<JsonObject> inbound = new CopyOnWriteArrayList<>();

    @Override
    public void outbound(JsonObject message) {
        outbound.add(message);
    }

    @Override
    public void inbound(JsonObject message) {
        inbound.add(message);
    }

    public List<JsonObject> outbound() {
        return List.copyOf(outbound);
    }

    public List<JsonObject> inbound() {
        return List.copyOf(inbound);
    }

    /** Outbound messages with the given method. */
    public List<JsonObject> sent(String method) {
        return outbound.stream().filter(m -> method.equals(m.getString("method", null))).toList();
    }

    /** Asserts that every message sent so far is a valid client message of the protocol version. */
    public void assertAllSentValid(String protocolVersion) {
        McpSchemaValidator validator = McpSchemaValidator.forVersion(protocolVersion);
        outbound.forEach(validator::assertValid);
    }

    public void clear() {
        outbound.clear();
        inbound.clear();
    }
}
