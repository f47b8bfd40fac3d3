package dev.switchboard.mcp.server;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.mcp.transport.InProcessServer;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The server side of MCP for a fixed set of tools served inside this JVM: {@code initialize} (the client's version
 * when supported, else the latest), {@code ping}, {@code tools/list} (one page), {@code tools/call} (with
 * {@code notifications/progress} when the tool reports and the client asked) and {@code notifications/cancelled}; any other method is {@code -32601}. Every request runs on the connection's
 * executor, so a slow tool never holds the sender's thread.
 */
public final class InProcessToolServer implements InProcessServer {

    private static final Logger LOG = Logger.getLogger(InProcessToolServer.class.getName());
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;

    /** The tools, already bound to the caller the connection serves. */
    public interface Tools {

        /** The {@code tools/list} entries. */
        JsonArray list();

        boolean has(String name);

        /**
         * A {@code CallToolResult}; a tool's own failure is a result with {@code isError: true}.
         *
         * @param progress reports progress to the client when it asked for it ({@code _meta.progressToken})
         */
        JsonObject call(String name, JsonObject arguments, Progress progress);
    }

    /** {@code notifications/progress} for one call. */
    public interface Progress {

        /** False when the client sent no progress token: nothing would be sent. */
        boolean wanted();

        /** {@code progress} must grow from one report to the next; {@code total} may be null. */
        void report(double progress, Double total, String message);
    }

    private static final Progress NO_PROGRESS = new Progress() {
        @Override
        public boolean wanted() {
            return false;
        }

        @Override
        public void report(double progress, Double total, String message) {
        }
    };

    private final String name;
    private final String version;
    private final Tools tools;

    public InProcessToolServer(String name, String version, Tools tools) {
        this.name = name;
        this.version = version;
        this.tools = tools;
    }

    @Override
    public Session connect(Consumer<JsonRpcMessage> toClient, Executor executor) {
        return new Connection(toClient, executor);
    }

    private final class Connection implements Session {

        private final Consumer<JsonRpcMessage> toClient;
        private final Executor executor;
        /** Requests being worked on, by id: a cancelled or closed one is removed and its answer dropped. */
        private final Map<String, Object> running = new ConcurrentHashMap<>();
        private volatile boolean closed;

        Connection(Consumer<JsonRpcMessage> toClient, Executor executor) {
            this.toClient = toClient;
            this.executor = executor;
        }

        @Override
        public void receive(JsonRpcMessage message) {
            if (closed) {
                return;
            }
            switch (message.kind()) {
                case REQUEST -> start(message);
                case NOTIFICATION -> {
                    if ("notifications/cancelled".equals(message.method()) && message.params().get("requestId") != null) {
                        // the work itself goes on to its own deadline (a query has its timeout); only the answer is dropped
                        running.remove(message.params().get("requestId").toString());
                    }
                }
                // we send no requests, so there are no responses to expect
                case RESPONSE, INVALID -> LOG.fine(() -> name + ": ignoring " + message.toJson());
            }
        }

        @Override
        public void close() {
            closed = true;
            running.clear();
        }

        private void start(JsonRpcMessage request) {
            String key = request.idKey();
            Object token = new Object();
            running.put(key, token);
            try {
                executor.execute(() -> {
                    JsonRpcMessage answer = answer(request);
                    if (running.remove(key, token) && !closed) {
                        toClient.accept(answer);
                    }
                });
            } catch (RejectedExecutionException e) {
                running.remove(key, token);
                toClient.accept(JsonRpcMessage.error(request.id(), INTERNAL_ERROR, name + " is shutting down"));
            }
        }

        private JsonRpcMessage answer(JsonRpcMessage request) {
            JsonValue id = request.id();
            try {
                return switch (request.method()) {
                    case "initialize" -> JsonRpcMessage.result(id, initialize(request.params()));
                    case "ping" -> JsonRpcMessage.result(id, JsonValue.EMPTY_JSON_OBJECT);
                    case "tools/list" -> JsonRpcMessage.result(id, JSON.createObjectBuilder().add("tools", tools.list()).build());
                    case "tools/call" -> call(id, request.params());
                    default -> JsonRpcMessage.error(id, METHOD_NOT_FOUND, "Method not found: " + request.method());
                };
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, name + ": " + request.method() + " failed", e);
                return JsonRpcMessage.error(id, INTERNAL_ERROR, request.method() + " failed: " + e.getClass().getSimpleName());
            }
        }

        private JsonRpcMessage call(JsonValue id, JsonObject params) {
            if (!(params.get("name") instanceof JsonString toolName)) {
                return JsonRpcMessage.error(id, INVALID_PARAMS, "tools/call needs the tool's 'name'");
            }
            if (!tools.has(toolName.getString())) {
                return JsonRpcMessage.error(id, INVALID_PARAMS, "Unknown tool: " + toolName.getString());
            }
            JsonValue arguments = params.get("arguments");
            if (arguments != null && arguments.getValueType() != JsonValue.ValueType.OBJECT
                    && arguments.getValueType() != JsonValue.ValueType.NULL) {
                return JsonRpcMessage.error(id, INVALID_PARAMS, "'arguments' must be an object");
            }
            return JsonRpcMessage.result(id, tools.call(toolName.getString(),
                    arguments instanceof JsonObject object ? object : JsonValue.EMPTY_JSON_OBJECT, progress(id, params)));
        }

        private Progress progress(JsonValue id, JsonObject params) {
            JsonValue token = params.get("_meta") instanceof JsonObject meta ? meta.get("progressToken") : null;
            if (!(token instanceof JsonString) && !(token instanceof JsonNumber)) {
                return NO_PROGRESS;
            }
            return new Progress() {
                @Override
                public boolean wanted() {
                    return true;
                }

                @Override
                public void report(double progress, Double total, String message) {
                    // only while the call is still wanted: never after its answer, its cancellation or the close
                    if (!closed && running.containsKey(id.toString())) {
                        JsonObjectBuilder body = JSON.createObjectBuilder().add("progressToken", token).add("progress", progress);
                        if (total != null) {
                            body.add("total", total);
                        }
                        toClient.accept(JsonRpcMessage.notification("notifications/progress", body.add("message", message).build()));
                    }
                }
            };
        }

        private JsonObject initialize(JsonObject params) {
            String asked = params.get("protocolVersion") instanceof JsonString s ? s.getString() : null;
            return JSON.createObjectBuilder()
                    .add("protocolVersion", ProtocolVersions.isSupported(asked) ? asked : ProtocolVersions.LATEST)
                    .add("capabilities", JSON.createObjectBuilder().add("tools", JSON.createObjectBuilder().add("listChanged", false)))
                    .add("serverInfo", JSON.createObjectBuilder().add("name", name).add("version", version))
                    .build();
        }
    }
}
