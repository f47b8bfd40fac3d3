package dev.switchboard.chat;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CallerIdentity;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Decisions stored in the message on each database, and a run waiting for them through {@link StoredApprovals}. */
class ApprovalStoreTest {

    static final CallerIdentity ALICE = new CallerIdentity("alice", "default", Set.of());
    static final CallerIdentity BOB = new CallerIdentity("bob", "default", Set.of());
    static final OwnerLease LEASE = new OwnerLease("this-member/1234abcd", Duration.ofSeconds(30));

    /** Each call in a transaction of its own, as the container runs them. */
    static final class Transactional extends ApprovalStore {
        private final TestDatabase db;

        Transactional(TestDatabase db) {
            this.db = db;
        }

        @Override
        public synchronized Map<String, ToolCallRecord> toolCalls(long messageId) {
            return db.inTransaction(em -> {
                this.em = em;
                return super.toolCalls(messageId);
            });
        }

        @Override
        public synchronized void cancelPending(long messageId, Set<String> ids, Function<String, JsonObject> why) {
            db.run(em -> {
                this.em = em;
                super.cancelPending(messageId, ids, why);
            });
        }

        @Override
        public synchronized void holdLease(long messageId, String owner, long until) {
            db.run(em -> {
                this.em = em;
                super.holdLease(messageId, owner, until);
            });
        }

        @Override
        public synchronized void releaseLease(long messageId, String owner) {
            db.run(em -> {
                this.em = em;
                super.releaseLease(messageId, owner);
            });
        }

        @Override
        public synchronized List<Long> expiredLeases(long now) {
            return db.inTransaction(em -> {
                this.em = em;
                return super.expiredLeases(now);
            });
        }

        @Override
        public synchronized List<ToolCallRecord> cancelOrphaned(long messageId, long now) {
            return db.inTransaction(em -> {
                this.em = em;
                return super.cancelOrphaned(messageId, now);
            });
        }

        @Override
        public synchronized Confirmation decide(CallerIdentity caller, long messageId, String toolCallId, boolean approved, JsonObject arguments) {
            return db.inTransaction(em -> {
                this.em = em;
                return super.decide(caller, messageId, toolCallId, approved, arguments);
            });
        }
    }

    static ToolCallRecord pending(String id) {
        return new ToolCallRecord(id, 7L, "srv", "delete", "mcp__srv__delete", Json.createObjectBuilder().add("path", "/").build(),
                ToolCallStatus.PENDING, null, false);
    }

    static long runningMessage(TestDatabase db, String finishReason, ToolCallRecord... records) {
        return db.inTransaction(em -> {
            Conversation conversation = new Conversation();
            conversation.setUserId("alice");
            conversation.setTenantId("default");
            em.persist(conversation);
            em.flush();
            ChatMessage message = new ChatMessage();
            message.setConversationId(conversation.getId());
            message.setRole("assistant");
            var calls = Json.createArrayBuilder();
            for (ToolCallRecord record : records) {
                calls.add(record.toJson());
            }
            message.setToolCallsJson(calls.build().toString());
            message.setFinishReason(finishReason);
            em.persist(message);
            em.flush();
            return message.getId();
        });
    }

    /** The refusal's message (its status needs the JAX-RS runtime, which unit tests do not have; the ITs check it). */
    static String refused(Runnable action) {
        return assertThrows(ApiException.class, action::run).getMessage();
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void decisionsAreCheckedAndOnlyOneWins(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            ApprovalStore store = new Transactional(db);
            long message = runningMessage(db, null, pending("a"), pending("b"), pending("c"));
            JsonObject edited = Json.createObjectBuilder().add("path", "/tmp").build();

            assertEquals("Message " + message + " not found", refused(() -> store.decide(BOB, message, "a", true, null).orThrow()), "someone else's message");
            assertEquals("Message " + message + " has no tool call 'zzz'", refused(() -> store.decide(ALICE, message, "zzz", true, null).orThrow()));
            assertEquals("Message " + (message + 1000) + " not found", refused(() -> store.decide(ALICE, message + 1000, "a", true, null).orThrow()));
            ToolCallRecord approved = store.decide(ALICE, message, "a", true, edited).orThrow();
            assertEquals(ToolCallStatus.INVOKING, approved.status());
            assertEquals(edited, approved.arguments());
            assertEquals("Tool call 'a' is invoking, not pending", refused(() -> store.decide(ALICE, message, "a", false, null).orThrow()));
            assertEquals(ToolCallStatus.CANCELLED, store.decide(ALICE, message, "b", false, null).orThrow().status());

            store.cancelPending(message, Set.of("a", "b", "c"), name -> ToolApproval.timeout(name, Duration.ofMinutes(5)));
            Map<String, ToolCallRecord> stored = store.toolCalls(message);
            assertEquals(ToolCallStatus.INVOKING, stored.get("a").status(), "the timeout never overrides a decision");
            assertEquals(ToolApproval.REJECTED, stored.get("b").response().asJsonObject().getJsonObject("error").getString("code"));
            assertEquals(ToolApproval.TIMED_OUT, stored.get("c").response().asJsonObject().getJsonObject("error").getString("code"));
            assertEquals("Tool call 'c' is cancelled, not pending", refused(() -> store.decide(ALICE, message, "c", true, null).orThrow()), "too late");

            long ended = runningMessage(db, "tool_calls", pending("m"));
            assertTrue(refused(() -> store.decide(ALICE, ended, "m", true, null).orThrow()).contains("is not waiting for approval"), "handed back to the caller");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aWaitingRunGetsTheDecisionOrTimesOut(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            ApprovalStore store = new Transactional(db);
            ApprovalSignals signals = new ApprovalSignals();
            long message = runningMessage(db, null, pending("a"));
            CompletableFuture<Map<String, ToolApproval>> waiting = awaitInBackground(store, signals, message, Duration.ofSeconds(10), LEASE);
            store.decide(ALICE, message, "a", true, null).orThrow();
            signals.signal(message);
            ToolApproval decision = waiting.get(20, java.util.concurrent.TimeUnit.SECONDS).get("a");
            assertTrue(decision.approved());
            assertEquals("/", decision.arguments().getString("path"), "the model's arguments when none were edited");

            long late = runningMessage(db, null, pending("t"));
            ToolApproval timedOut = new StoredApprovals(store, signals, () -> late, Duration.ofMillis(200), Duration.ofMillis(50), LEASE)
                    .await(List.of(pending("t")), () -> { }).get("t");
            assertEquals(false, timedOut.approved());
            assertEquals(ToolApproval.TIMED_OUT, timedOut.refusal().getJsonObject("error").getString("code"));
            assertEquals(ToolCallStatus.CANCELLED, store.toolCalls(late).get("t").status());

            long left = runningMessage(db, null, pending("h"));
            StoredApprovals hungUp = new StoredApprovals(store, signals, () -> left, Duration.ofSeconds(30), Duration.ofMillis(50), LEASE);
            assertThrows(java.io.UncheckedIOException.class, () -> hungUp.await(List.of(pending("h")), () -> {
                throw new java.io.UncheckedIOException(new java.io.IOException("the client closed the stream"));
            }));
            ToolCallRecord abandoned = store.toolCalls(left).get("h");
            assertEquals(ToolCallStatus.CANCELLED, abandoned.status(), "not left pending when the client goes away");
            assertEquals(ToolApproval.ABANDONED, abandoned.response().asJsonObject().getJsonObject("error").getString("code"));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aWaitingRunHoldsItsLeaseAndDropsItWhenItStopsWaiting(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            ApprovalStore store = new Transactional(db);
            ApprovalSignals signals = new ApprovalSignals();
            long message = runningMessage(db, null, pending("a"));
            OwnerLease shortLease = new OwnerLease("this-member/1234abcd", Duration.ofMillis(400));
            // a poll far longer than the lease: the run still wakes to renew it
            CompletableFuture<Map<String, ToolApproval>> waiting = awaitInBackground(store, signals, message, Duration.ofSeconds(20), shortLease);
            Thread.sleep(1200);
            assertEquals("this-member/1234abcd", lease(db, message).owner(), "held while it waits");
            assertTrue(lease(db, message).until() > System.currentTimeMillis(), "renewed while it waits, though 3 leases long");
            assertEquals(List.of(), store.expiredLeases(System.currentTimeMillis()));
            store.decide(ALICE, message, "a", false, null).orThrow();
            signals.signal(message);
            waiting.get(20, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(new Lease(null, null), lease(db, message), "dropped once it stopped waiting");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void theSweepCancelsTheCallsOfARunWhoseMemberStoppedAndOnlyThose(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            ApprovalStore store = new Transactional(db);
            long now = System.currentTimeMillis();
            ToolCallRecord approvedBefore = new ToolCallRecord("done", 7L, "srv", "read", "mcp__srv__read",
                    Json.createObjectBuilder().build(), ToolCallStatus.INVOKING, null, false);
            long orphan = runningMessage(db, null, pending("a"), pending("b"), approvedBefore);
            store.holdLease(orphan, "dead-member/0000dead", now - 1);
            long alive = runningMessage(db, null, pending("c"));
            store.holdLease(alive, "other-member/1111beef", now + 30_000);

            RunLeases leases = new RunLeases();
            leases.store = store;
            leases.length = Duration.ofSeconds(30);
            assertEquals(2, leases.sweep(), "the two pending calls of the orphaned run");

            Map<String, ToolCallRecord> calls = store.toolCalls(orphan);
            for (String id : List.of("a", "b")) {
                assertEquals(ToolCallStatus.CANCELLED, calls.get(id).status());
                JsonObject error = calls.get(id).response().asJsonObject().getJsonObject("error");
                assertEquals(ToolApproval.ORPHANED, error.getString("code"));
                assertEquals("Cancelled: the member running this chat stopped while the tool 'mcp__srv__delete' waited "
                        + "for approval; it did not run.", error.getString("message"));
            }
            assertEquals(ToolCallStatus.INVOKING, calls.get("done").status(), "a call decided before is left alone");
            assertEquals("error", db.inTransaction(em -> em.find(ChatMessage.class, orphan)).getFinishReason(), "the message ended");
            assertEquals(new Lease(null, null), lease(db, orphan));
            assertTrue(refused(() -> store.decide(ALICE, orphan, "a", true, null).orThrow()).contains("is cancelled, not pending"));

            assertEquals(ToolCallStatus.PENDING, store.toolCalls(alive).get("c").status(), "a lease still running is not touched");
            assertEquals("other-member/1111beef", lease(db, alive).owner());
            assertEquals(0, leases.sweep(), "nothing left to cancel");
            assertEquals(List.of(), store.cancelOrphaned(alive, now), "not expired: the sweep's re-check under the lock refuses");
        }
    }

    /** A run waiting (30 s at most) for the decision on its call {@code a}, on another thread. */
    static CompletableFuture<Map<String, ToolApproval>> awaitInBackground(ApprovalStore store, ApprovalSignals signals,
                                                                          long message, Duration poll, OwnerLease lease) {
        StoredApprovals approvals = new StoredApprovals(store, signals, () -> message, Duration.ofSeconds(30), poll, lease);
        return CompletableFuture.supplyAsync(() -> approvals.await(List.of(pending("a")), () -> { }));
    }

    record Lease(String owner, Long until) {
    }

    static Lease lease(TestDatabase db, long messageId) throws Exception {
        try (var connection = db.jdbc(); var query = connection.prepareStatement(
                "SELECT run_owner, lease_until FROM chat_messages WHERE id = ?")) {
            query.setLong(1, messageId);
            try (var rows = query.executeQuery()) {
                assertTrue(rows.next());
                long until = rows.getLong(2);
                return new Lease(rows.getString(1), rows.wasNull() ? null : until);
            }
        }
    }
}
