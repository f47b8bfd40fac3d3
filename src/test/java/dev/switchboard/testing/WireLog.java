package dev.switchboard.testing;

import dev.switchboard.testing.McpSchemaValidator.Sender;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The JSON-RPC messages of one MCP session as they crossed one edge (a client and a server), in order, each with the
 * side that sent it; checks every one against the schema of the session's protocol version, responses against the
 * result of the request they answer (paired by id with the other side's requests).
 */
public final class WireLog {

    /** One message and who sent it; one a test sent invalid on purpose is not checked. */
    public record Entry(Sender sender, JsonObject message, boolean invalidOnPurpose) {
        public String method() {
            return message.getString("method", null);
        }

        public boolean isRequest() {
            return message.containsKey("method") && message.containsKey("id");
        }
    }

    private final String edge;
    private final List<Entry> entries = new ArrayList<>();

    /** @param edge names the edge in failure messages, e.g. "upstream /mcp over WebSocket" */
    public WireLog(String edge) {
        this.edge = edge;
    }

    public String edge() {
        return edge;
    }

    public synchronized void add(Sender sender, JsonObject message) {
        add(new Entry(sender, message, false));
    }

    /** Records a message a test sends to see it refused: it pairs with its answer but is not checked itself. */
    public synchronized void addInvalidOnPurpose(Sender sender, JsonObject message) {
        add(new Entry(sender, message, true));
    }

    private synchronized void add(Entry entry) {
        entries.add(entry);
        notifyAll();
    }

    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The methods of the requests and notifications the sender sent, in order. */
    public List<String> methods(Sender sender) {
        return entries().stream().filter(e -> e.sender() == sender && e.method() != null).map(Entry::method).toList();
    }

    /** Waits (bounded) until a message of the sender matches; fails the test when none does in time. */
    public synchronized JsonObject await(Sender sender, Predicate<JsonObject> match, Duration timeout, String what) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            Optional<JsonObject> found = entries.stream().filter(e -> e.sender() == sender).map(Entry::message)
                    .filter(match).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            long left = Duration.between(Instant.now(), deadline).toMillis();
            if (left <= 0) {
                throw new AssertionError(edge + ": no " + what + " within " + timeout + "; messages: " + entries);
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    /** Every message that is not valid in the protocol version, each with its schema errors; empty when all are. */
    public List<String> problems(String protocolVersion) {
        return problems(protocolVersion, null);
    }

    /** Like {@link #problems(String)} for the messages of one side only (null: both). */
    public List<String> problems(String protocolVersion, Sender only) {
        List<Entry> all = entries();
        Map<Sender, Map<String, String>> requested = new EnumMap<>(Sender.class);
        for (Sender sender : Sender.values()) {
            requested.put(sender, new HashMap<>());
        }
        all.stream().filter(Entry::isRequest).forEach(e -> requested.get(e.sender()).put(idKey(e.message()), e.method()));
        McpSchemaValidator validator = McpSchemaValidator.forVersion(protocolVersion);
        List<String> problems = new ArrayList<>();
        for (Entry entry : all) {
            if (entry.invalidOnPurpose() || only != null && entry.sender() != only) {
                continue;
            }
            String answered = entry.method() == null ? requested.get(entry.sender().peer()).get(idKey(entry.message())) : null;
            List<String> wrong = validator.problems(entry.message(), entry.sender(), answered);
            if (!wrong.isEmpty()) {
                problems.add(edge + ", " + entry.sender() + " -> " + entry.sender().peer()
                        + (answered == null ? "" : " (answering " + answered + ")") + ", " + protocolVersion + ": "
                        + entry.message() + "\n    " + String.join("\n    ", wrong));
            }
        }
        return problems;
    }

    private static String idKey(JsonObject message) {
        JsonValue id = message.get("id");
        return id == null ? null : id.toString();
    }

    @Override
    public String toString() {
        return edge + " " + entries();
    }
}
