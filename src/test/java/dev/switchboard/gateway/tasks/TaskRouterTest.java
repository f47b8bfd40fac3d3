package dev.switchboard.gateway.tasks;

import dev.switchboard.gateway.ClientContext;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.McpRouter;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.security.CallerIdentity;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TaskRouterTest {

    /** The task rows in memory, with the store's conditional ends. */
    static final class MemoryStore extends GatewayTaskStore {
        final Map<String, GatewayTask> rows = new ConcurrentHashMap<>();

        @Override
        public void create(GatewayTask task) {
            rows.put(task.getTaskId(), task);
        }

        @Override
        public Optional<GatewayTask> find(String taskId, String tenantId, String subject) {
            return Optional.ofNullable(rows.get(taskId)).filter(t -> t.getTenantId().equals(tenantId) && t.getSubject().equals(subject));
        }

        @Override
        public synchronized boolean finish(String taskId, String status, String message, String kind, String outcome, long now) {
            GatewayTask t = rows.get(taskId);
            if (t == null || t.isTerminal()) {
                return false;
            }
            rows.put(taskId, copy(t, status, message, kind, outcome, now));
            return true;
        }

        @Override
        public synchronized boolean cancel(String taskId, String tenantId, String subject, String message, long now) {
            return find(taskId, tenantId, subject).filter(t -> !t.isTerminal())
                    .map(t -> rows.put(taskId, copy(t, GatewayTask.CANCELLED, message, null, null, now))).isPresent();
        }

        @Override
        public List<GatewayTask> list(String tenantId, String subject, TaskCursor after, int limit) {
            return rows.values().stream().filter(t -> t.getTenantId().equals(tenantId) && t.getSubject().equals(subject))
                    .sorted(Comparator.comparingLong(GatewayTask::getCreatedAt).thenComparing(GatewayTask::getTaskId).reversed())
                    .filter(t -> after == null || t.getCreatedAt() < after.createdAt()
                            || t.getCreatedAt() == after.createdAt() && t.getTaskId().compareTo(after.taskId()) < 0)
                    .limit(limit).toList();
        }

        @Override
        public int purgeExpired(long now) {
            return 0;
        }

        private static GatewayTask copy(GatewayTask t, String status, String message, String kind, String outcome, long now) {
            GatewayTask c = new GatewayTask(t.getTaskId(), t.getTenantId(), t.getSubject(), "tools/call", t.getTarget(), "here",
                    t.getCreatedAt(), t.getTtlMs());
            c.ended(status, message, kind, outcome, now);
            return c;
        }
    }

    /** A stack below whose tool calls wait for the test's go, then echo their arguments (or fail for "broken"). */
    static final class Below implements McpRouter {
        final CountDownLatch go = new CountDownLatch(1);
        final java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        volatile boolean interrupted;

        @Override
        public JsonObject initializeResult(String protocolVersion) {
            return Json.createObjectBuilder().add("capabilities", Json.createObjectBuilder().add("tools", JsonValue.EMPTY_JSON_OBJECT)).build();
        }

        @Override
        public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
            if (request.method().equals("tools/list")) {
                return JsonRpcMessage.result(request.id(), Json.createObjectBuilder().add("tools", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("name", "a__slow"))
                        .add(Json.createObjectBuilder().add("name", "a__must").add("execution", Json.createObjectBuilder().add("taskSupport", "required")))).build());
            }
            assertFalse(request.params().containsKey("task"), "the backend gets a plain call");
            started.incrementAndGet();
            try {
                if (!go.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no go");
                }
            } catch (InterruptedException e) {
                interrupted = true;
                return GatewayErrors.error(request.id(), GatewayErrors.REQUEST_CANCELLED, "Request cancelled", null);
            }
            if (request.params().getString("name").equals("a__broken")) {
                return GatewayErrors.error(request.id(), -32030, "Backend unavailable: a", null);
            }
            return JsonRpcMessage.result(request.id(), Json.createObjectBuilder().add("content", Json.createArrayBuilder()
                    .add(Json.createObjectBuilder().add("type", "text").add("text", request.params().getJsonObject("arguments").toString()))).build());
        }
    }

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final MemoryStore store = new MemoryStore();
    private final GatewayTasks tasks = new GatewayTasks(store, workers, new GatewayTasks.TaskSettings(Duration.ofHours(1),
            Duration.ofHours(24), Duration.ofSeconds(1), Duration.ofSeconds(10)));
    private static final ClientContext ALICE = new ClientContext(new CallerIdentity("alice", "t1", Set.of("user")), "c", "s", null);
    private static final ClientContext BOB = new ClientContext(new CallerIdentity("bob", "t1", Set.of("user")), "c", "s", null);

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    private static JsonRpcMessage request(int id, String method, JsonObject params) {
        return new JsonRpcMessage(Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", method).add("params", params).build());
    }

    private static JsonObject taskCall(String tool, JsonObject task) {
        return Json.createObjectBuilder().add("name", tool).add("arguments", Json.createObjectBuilder().add("n", 7)).add("task", task).build();
    }

    private static JsonObject byId(String taskId) {
        return Json.createObjectBuilder().add("taskId", taskId).build();
    }

    @Test
    void aToolCallRunsAsATaskTheClientPollsAndFetchesLater() {
        Below below = new Below();
        TaskRouter router = new TaskRouter(below, tasks, ALICE);
        assertTrue(router.initializeResult("2025-11-25").getJsonObject("capabilities").getJsonObject("tasks").getJsonObject("requests")
                .getJsonObject("tools").containsKey("call"));
        List<JsonObject> tools = router.handle(request(1, "tools/list", JsonValue.EMPTY_JSON_OBJECT), null, null).json()
                .getJsonObject("result").getJsonArray("tools").getValuesAs(JsonObject.class);
        assertEquals("optional", tools.get(0).getJsonObject("execution").getString("taskSupport"));
        assertEquals("required", tools.get(1).getJsonObject("execution").getString("taskSupport"));

        JsonObject created = router.handle(request(2, "tools/call", taskCall("a__slow", Json.createObjectBuilder().add("ttl", 60_000).build())),
                null, null).json().getJsonObject("result").getJsonObject("task");
        String id = created.getString("taskId");
        assertEquals("working", created.getString("status"));
        assertEquals(60_000, created.getInt("ttl"));
        assertEquals("working", router.handle(request(3, "tasks/get", byId(id)), null, null).json().getJsonObject("result").getString("status"));
        assertEquals(-32602, new TaskRouter(below, tasks, BOB).handle(request(4, "tasks/get", byId(id)), null, null).json()
                .getJsonObject("error").getInt("code"), "another caller's task is unknown to them");

        below.go.countDown();
        JsonObject result = router.handle(request(5, "tasks/result", byId(id)), null, null).json().getJsonObject("result");
        assertEquals("{\"n\":7}", result.getJsonArray("content").getJsonObject(0).getString("text"));
        assertEquals(id, result.getJsonObject("_meta").getJsonObject(TaskRouter.RELATED_TASK).getString("taskId"));
        assertEquals("completed", router.handle(request(6, "tasks/get", byId(id)), null, null).json().getJsonObject("result").getString("status"));
        assertEquals(1, router.handle(request(7, "tasks/list", JsonValue.EMPTY_JSON_OBJECT), null, null).json().getJsonObject("result")
                .getJsonArray("tasks").size());
        JsonObject late = router.handle(request(8, "tasks/cancel", byId(id)), null, null).json().getJsonObject("error");
        assertTrue(late.getString("message").contains("has ended already (completed)"), late::toString);
    }

    @Test
    void aFailedCallIsAFailedTaskWhoseResultIsTheCallsErrorAndACancelledOneStopsItsCall() throws Exception {
        Below below = new Below();
        TaskRouter router = new TaskRouter(below, tasks, ALICE);
        String broken = router.handle(request(1, "tools/call", taskCall("a__broken", JsonValue.EMPTY_JSON_OBJECT)), null, null)
                .json().getJsonObject("result").getJsonObject("task").getString("taskId");
        String slow = router.handle(request(2, "tools/call", taskCall("a__slow", JsonValue.EMPTY_JSON_OBJECT)), null, null)
                .json().getJsonObject("result").getJsonObject("task").getString("taskId");
        for (int i = 0; i < 100 && below.started.get() < 2; i++) {
            Thread.sleep(20);
        }
        JsonObject cancelled = router.handle(request(3, "tasks/cancel", byId(slow)), null, null).json().getJsonObject("result");
        assertEquals("cancelled", cancelled.getString("status"));
        for (int i = 0; i < 100 && !below.interrupted; i++) {
            Thread.sleep(20);
        }
        assertTrue(below.interrupted, "the running call was stopped");
        assertEquals(GatewayErrors.REQUEST_CANCELLED, router.handle(request(4, "tasks/result", byId(slow)), null, null).json()
                .getJsonObject("error").getInt("code"));
        below.go.countDown();
        JsonObject error = router.handle(request(5, "tasks/result", byId(broken)), null, null).json().getJsonObject("error");
        assertEquals(-32030, error.getInt("code"));
        assertEquals("failed", router.handle(request(6, "tasks/get", byId(broken)), null, null).json().getJsonObject("result").getString("status"));
    }

    @Test
    void badTaskParamsAndIdsAreRefusedWithTheirReason() {
        TaskRouter router = new TaskRouter(new Below(), tasks, ALICE);
        for (JsonObject task : List.of(Json.createObjectBuilder().add("ttl", -5).build(), Json.createObjectBuilder().add("ttl", "soon").build(),
                Json.createObjectBuilder().add("ttl", 1.5).build())) {
            JsonObject error = router.handle(request(1, "tools/call", taskCall("a__slow", task)), null, null).json().getJsonObject("error");
            assertTrue(error.getString("message").contains("ttl"), error::toString);
        }
        assertTrue(router.handle(request(2, "tasks/get", JsonValue.EMPTY_JSON_OBJECT), null, null).json().getJsonObject("error")
                .getString("message").contains("taskId is required"));
        assertTrue(router.handle(request(3, "tasks/result", byId("nope")), null, null).json().getJsonObject("error")
                .getString("message").contains("Unknown task nope"));
        assertTrue(router.handle(request(4, "tasks/list", Json.createObjectBuilder().add("cursor", "%%%").build()), null, null).json()
                .getJsonObject("error").getString("message").contains("cursor"));
        assertTrue(store.rows.isEmpty(), "no task was made");
    }
}
