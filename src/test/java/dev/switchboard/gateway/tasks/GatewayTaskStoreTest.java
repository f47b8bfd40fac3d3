package dev.switchboard.gateway.tasks;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The task rows on H2 and MariaDB: a task ends once, only its owner sees it, pages are stable, expired ones go. */
class GatewayTaskStoreTest {

    /** The store in transactions of the test database's own (the server's are container-managed). */
    static final class TestStore extends GatewayTaskStore {
        private final TestDatabase db;

        TestStore(TestDatabase db) {
            this.db = db;
        }

        private <T> T tx(Supplier<T> work) {
            return db.inTransaction(em -> {
                this.em = em;
                return work.get();
            });
        }

        @Override
        public void create(GatewayTask task) {
            tx(() -> {
                super.create(task);
                return null;
            });
        }

        @Override
        public java.util.Optional<GatewayTask> find(String taskId, String tenantId, String subject) {
            return tx(() -> super.find(taskId, tenantId, subject));
        }

        @Override
        public boolean finish(String taskId, String status, String message, String kind, String outcome, long now) {
            return tx(() -> super.finish(taskId, status, message, kind, outcome, now));
        }

        @Override
        public boolean cancel(String taskId, String tenantId, String subject, String message, long now) {
            return tx(() -> super.cancel(taskId, tenantId, subject, message, now));
        }

        @Override
        public List<GatewayTask> list(String tenantId, String subject, TaskCursor after, int limit) {
            return tx(() -> super.list(tenantId, subject, after, limit));
        }

        @Override
        public int purgeExpired(long now) {
            return tx(() -> super.purgeExpired(now));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aTaskEndsOnceIsSeenByItsOwnerOnlyPagesStablyAndExpires(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            TestStore store = new TestStore(db);
            for (int i = 0; i < 5; i++) {
                store.create(new GatewayTask("task-" + i, "t1", "alice", "tools/call", "a__slow", "here", 1_000 + i, 60_000));
            }
            store.create(new GatewayTask("bobs", "t1", "bob", "tools/call", "a__slow", "here", 1_000, 60_000));

            String big = "x".repeat(200_000);
            assertTrue(store.finish("task-0", GatewayTask.COMPLETED, null, "result", "{\"text\":\"" + big + "\"}", 2_000));
            assertFalse(store.cancel("task-0", "t1", "alice", "late", 2_001), "an ended task is not cancelled");
            assertTrue(store.cancel("task-1", "t1", "alice", "Cancelled by the client", 2_002));
            assertFalse(store.finish("task-1", GatewayTask.COMPLETED, null, "result", "{}", 2_003), "a cancelled task's outcome is dropped");
            assertFalse(store.cancel("task-2", "t1", "bob", "not yours", 2_004), "another caller cannot cancel it");

            GatewayTask done = store.find("task-0", "t1", "alice").orElseThrow();
            assertEquals(GatewayTask.COMPLETED, done.getStatus());
            assertEquals(200_011, done.getOutcome().length(), "a large result is kept whole");
            assertEquals(GatewayTask.CANCELLED, store.find("task-1", "t1", "alice").orElseThrow().getStatus());
            assertTrue(store.find("bobs", "t1", "alice").isEmpty(), "another caller's task is not found");
            assertTrue(store.find("task-0", "t2", "alice").isEmpty(), "nor in another tenant");

            List<GatewayTask> first = store.list("t1", "alice", null, 3);
            assertEquals(List.of("task-4", "task-3", "task-2"), first.stream().map(GatewayTask::getTaskId).toList());
            TaskCursor cursor = TaskCursor.decode(new TaskCursor(first.get(2).getCreatedAt(), first.get(2).getTaskId()).encoded()).orElseThrow();
            assertEquals(List.of("task-1", "task-0"), store.list("t1", "alice", cursor, 3).stream().map(GatewayTask::getTaskId).toList());

            assertEquals(6, store.purgeExpired(1_000 + 60_005));
            assertTrue(store.find("task-4", "t1", "alice").isEmpty());
        }
    }
}
