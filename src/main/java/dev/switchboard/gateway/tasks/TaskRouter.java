package dev.switchboard.gateway.tasks;

import dev.switchboard.gateway.ClientContext;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.McpRouter;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * MCP 2025-11-25 tasks for a session's client, served by the gateway itself in front of the session's router stack: a
 * {@code tools/call} with {@code params.task} is answered at once with a {@code CreateTaskResult} while the call runs
 * as a task ({@link GatewayTasks}); {@code tasks/get}, {@code tasks/result}, {@code tasks/list} and
 * {@code tasks/cancel} answer from the task records; {@code initialize} offers the {@code tasks} capability and every
 * listed tool may be called as a task. Backends are called as usual: the gateway runs the task, not the backend, so
 * any tool of any backend can run as one. Everything else passes to the stack below unchanged.
 */
public final class TaskRouter implements McpRouter {

    /** Where a result names the task it belongs to (2025-11-25 {@code RelatedTaskMetadata}). */
    static final String RELATED_TASK = "io.modelcontextprotocol/related-task";
    private static final int PAGE = 50;

    private final McpRouter below;
    private final GatewayTasks tasks;
    private final ClientContext caller;

    public TaskRouter(McpRouter below, GatewayTasks tasks, ClientContext caller) {
        this.below = below;
        this.tasks = tasks;
        this.caller = caller;
    }

    @Override
    public JsonObject initializeResult(String protocolVersion) {
        JsonObject result = below.initializeResult(protocolVersion);
        JsonObject capabilities = result.get("capabilities") instanceof JsonObject c ? c : JsonValue.EMPTY_JSON_OBJECT;
        return JSON.createObjectBuilder(result).add("capabilities", JSON.createObjectBuilder(capabilities).add("tasks",
                JSON.createObjectBuilder().add("list", JsonValue.EMPTY_JSON_OBJECT).add("cancel", JsonValue.EMPTY_JSON_OBJECT)
                        .add("requests", JSON.createObjectBuilder().add("tools", JSON.createObjectBuilder()
                                .add("call", JsonValue.EMPTY_JSON_OBJECT))))).build();
    }

    @Override
    public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
        JsonObject params = request.params();
        return switch (request.method()) {
            case "tools/call" -> params.containsKey("task") ? startTask(request) : below.handle(request, progress, clientRequests);
            case "tools/list" -> taskable(below.handle(request, progress, clientRequests));
            case "tasks/get" -> withTask(request, task -> JsonRpcMessage.result(request.id(), taskJson(task)));
            case "tasks/cancel" -> cancel(request);
            case "tasks/result" -> result(request);
            case "tasks/list" -> list(request);
            default -> below.handle(request, progress, clientRequests);
        };
    }

    private JsonRpcMessage startTask(JsonRpcMessage request) {
        if (!(request.params().get("task") instanceof JsonObject task)) {
            return invalid(request, "params.task must be an object ({\"ttl\": milliseconds} or {})");
        }
        JsonValue ttl = task.get("ttl");
        if (ttl != null && ttl != JsonValue.NULL && !(ttl instanceof JsonNumber n && n.isIntegral() && n.bigIntegerValue().signum() > 0)) {
            return invalid(request, "params.task.ttl must be a positive whole number of milliseconds");
        }
        Long requested = ttl instanceof JsonNumber n ? (n.bigIntegerValue().bitLength() < 63 ? n.longValue() : Long.MAX_VALUE) : null;
        JsonObjectBuilder plain = JSON.createObjectBuilder(request.params());
        plain.remove("task");
        JsonRpcMessage call = new JsonRpcMessage(JSON.createObjectBuilder(request.json()).add("params", plain).build());
        // the task's call asks its client nothing and reports no progress: the client is not waiting on a stream
        GatewayTask started = tasks.start(caller, call, requested, r -> below.handle(r, null, null));
        return JsonRpcMessage.result(request.id(), JSON.createObjectBuilder().add("task", taskJson(started)).build());
    }

    private JsonRpcMessage cancel(JsonRpcMessage request) {
        return withTask(request, task -> {
            if (task.isTerminal()) {
                return invalid(request, "Task " + task.getTaskId() + " has ended already (" + task.getStatus() + "): it cannot be cancelled");
            }
            return tasks.cancel(caller, task.getTaskId()).map(t -> JsonRpcMessage.result(request.id(), taskJson(t)))
                    .orElseGet(() -> unknown(request, task.getTaskId()));
        });
    }

    /** The task's outcome once it ends: the call's own result (naming the task) or its own error. */
    private JsonRpcMessage result(JsonRpcMessage request) {
        return withTask(request, task -> {
            Optional<GatewayTask> ended;
            try {
                ended = tasks.awaitEnd(caller, task.getTaskId());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return GatewayErrors.error(request.id(), GatewayErrors.REQUEST_CANCELLED, "Request cancelled", null);
            } catch (TimeoutException e) {
                return GatewayErrors.error(request.id(), GatewayErrors.INTERNAL_ERROR, "Task " + task.getTaskId()
                        + " is still working after " + tasks.settings().resultWait().toSeconds() + " s: ask tasks/result again", null);
            }
            if (ended.isEmpty()) {
                return unknown(request, task.getTaskId());
            }
            GatewayTask done = ended.get();
            if (GatewayTask.CANCELLED.equals(done.getStatus()) || done.getOutcome() == null) {
                return GatewayErrors.error(request.id(), GatewayErrors.REQUEST_CANCELLED, "Task " + done.getTaskId()
                        + " was cancelled" + (done.getStatusMessage() == null ? "" : ": " + done.getStatusMessage()), null);
            }
            JsonObject outcome = parse(done.getOutcome());
            if ("error".equals(done.getOutcomeKind())) {
                return new JsonRpcMessage(JSON.createObjectBuilder().add("jsonrpc", "2.0").add("id", request.id()).add("error", outcome).build());
            }
            JsonObject meta = outcome.get("_meta") instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
            return JsonRpcMessage.result(request.id(), JSON.createObjectBuilder(outcome).add("_meta", JSON.createObjectBuilder(meta)
                    .add(RELATED_TASK, JSON.createObjectBuilder().add("taskId", done.getTaskId()))).build());
        });
    }

    private JsonRpcMessage list(JsonRpcMessage request) {
        TaskCursor after = null;
        if (request.params().get("cursor") instanceof JsonString cursor) {
            Optional<TaskCursor> decoded = TaskCursor.decode(cursor.getString());
            if (decoded.isEmpty()) {
                return invalid(request, "params.cursor is not a cursor of tasks/list");
            }
            after = decoded.get();
        }
        List<GatewayTask> page = tasks.list(caller, after, PAGE + 1);
        JsonArrayBuilder listed = JSON.createArrayBuilder();
        page.stream().limit(PAGE).forEach(t -> listed.add(taskJson(t)));
        JsonObjectBuilder result = JSON.createObjectBuilder().add("tasks", listed);
        if (page.size() > PAGE) {
            GatewayTask last = page.get(PAGE - 1);
            result.add("nextCursor", new TaskCursor(last.getCreatedAt(), last.getTaskId()).encoded());
        }
        return JsonRpcMessage.result(request.id(), result.build());
    }

    private JsonRpcMessage withTask(JsonRpcMessage request, java.util.function.Function<GatewayTask, JsonRpcMessage> then) {
        if (!(request.params().get("taskId") instanceof JsonString id) || id.getString().isEmpty() || id.getString().length() > 64) {
            return invalid(request, "params.taskId is required (the taskId of a CreateTaskResult)");
        }
        return tasks.find(caller, id.getString()).map(then).orElseGet(() -> unknown(request, id.getString()));
    }

    /** Every tool may be called as a task: the gateway runs it, whatever its backend can do. */
    private static JsonRpcMessage taskable(JsonRpcMessage response) {
        if (!(response.json().get("result") instanceof JsonObject result) || !(result.get("tools") instanceof JsonArray tools)) {
            return response;
        }
        JsonArrayBuilder marked = JSON.createArrayBuilder();
        for (JsonValue tool : tools) {
            if (tool instanceof JsonObject t) {
                JsonObject execution = t.get("execution") instanceof JsonObject e ? e : JsonValue.EMPTY_JSON_OBJECT;
                String support = execution.getString("taskSupport", "forbidden");
                marked.add("required".equals(support) ? t : JSON.createObjectBuilder(t)
                        .add("execution", JSON.createObjectBuilder(execution).add("taskSupport", "optional")).build());
            } else {
                marked.add(tool);
            }
        }
        return JsonRpcMessage.result(response.id(), JSON.createObjectBuilder(result).add("tools", marked).build());
    }

    private JsonObject taskJson(GatewayTask task) {
        long pollIntervalMs = tasks.settings().pollInterval().toMillis();
        JsonObjectBuilder json = JSON.createObjectBuilder().add("taskId", task.getTaskId()).add("status", task.getStatus())
                .add("createdAt", Instant.ofEpochMilli(task.getCreatedAt()).toString())
                .add("lastUpdatedAt", Instant.ofEpochMilli(task.getUpdatedAt()).toString())
                .add("ttl", task.getTtlMs())
                .add("pollInterval", pollIntervalMs);
        if (task.getStatusMessage() != null) {
            json.add("statusMessage", task.getStatusMessage());
        }
        return json.build();
    }

    private static JsonObject parse(String json) {
        try (var reader = JSON.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    private static JsonRpcMessage unknown(JsonRpcMessage request, String taskId) {
        return invalid(request, "Unknown task " + taskId + " (never created, another caller's, or deleted after its ttl)");
    }

    private static JsonRpcMessage invalid(JsonRpcMessage request, String message) {
        return GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "Invalid params: " + message, null);
    }
}
