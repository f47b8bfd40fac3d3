package dev.switchboard.sql.dialect;

import jakarta.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A connection that keeps what the server sent, for tests of the dialect without a transport. */
final class RecordingChannel implements DialectChannel {

    final List<JsonObject> sent = new CopyOnWriteArrayList<>();
    /** Why the server closed this connection; null while it has not. */
    volatile String closedFor;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();

    @Override
    public String id() {
        return "test";
    }

    @Override
    public void send(JsonObject message) {
        sent.add(message);
    }

    @Override
    public void close(String reason) {
        closedFor = reason;
    }

    @Override
    public Map<String, Object> attributes() {
        return attributes;
    }

    /** The answer to request {@code id}, waiting for it up to five seconds. */
    JsonObject answer(String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            for (JsonObject m : sent) {
                if (m.containsKey("id") && m.get("id").toString().equals("\"" + id + "\"")) {
                    return m;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no answer to " + id + " in " + sent);
    }
}
