package dev.switchboard.audit;

import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransactionRollbackException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Group commit: a caller returns only once its event is written, one commit releases every caller that waited for
 * it, an event that cannot be written in time makes its caller fail (and is written later), a database that is down
 * refuses calls before they run, an event the database refuses cannot hold back the others, and a conflict with
 * another writer is retried until it goes through. No write ever runs on the caller's (possibly interrupted) thread.
 */
class AuditLogTest {

    /** Records each write (thread, interrupt, size); can hold the writer, fail it, or refuse one tool's events. */
    static final class ScriptedWriter extends AuditWriter {
        final List<String> writes = new CopyOnWriteArrayList<>();
        final List<String> written = new CopyOnWriteArrayList<>();
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch holding = new CountDownLatch(1);
        volatile boolean hold;
        volatile boolean down;
        final AtomicInteger conflicts = new AtomicInteger();

        @Override
        public void write(List<AuditRecord> batch) throws SQLException {
            Thread thread = Thread.currentThread();
            writes.add(thread.getName() + (thread.isInterrupted() ? " interrupted" : "") + " x" + batch.size());
            if (hold) {
                holding.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    thread.interrupt();
                }
                hold = false;
            }
            if (down) {
                throw new SQLException("Connection refused", "08001");
            }
            int conflictsLeft = conflicts.getAndUpdate(n -> Math.max(0, n - 1));
            if (conflictsLeft > 0) {
                throw conflictsLeft % 2 == 0 ? new SQLTransactionRollbackException("Deadlock found when trying to get lock", "40001")
                        : new SQLIntegrityConstraintViolationException("Duplicate entry 'acme-7' for key 'uq_audit_chain'", "23000", 1062);
            }
            if (batch.stream().anyMatch(r -> "poison".equals(r.tool()))) {
                throw new SQLException("Incorrect string value", "HY000");
            }
            batch.forEach(r -> written.add(r.tool()));
        }

        @Override
        public boolean databaseAnswers() {
            return !down;
        }
    }

    private final ScriptedWriter writer = new ScriptedWriter();
    private final AuditLog log = new AuditLog();
    /** A thread per caller: the common pool may have a single thread on a small machine. */
    private final ExecutorService callers = Executors.newCachedThreadPool();

    private void start(Duration commitTimeout, boolean waitForCommit) {
        log.writer = writer;
        log.capacity = 100;
        log.commitTimeout = commitTimeout;
        log.waitForCommit = waitForCommit;
        log.threads = TestThreads.FACTORY;
        log.start();
    }

    @AfterEach
    void stop() {
        writer.release.countDown();
        writer.down = false;
        log.stop();
        callers.shutdownNow();
        Thread.interrupted();
    }

    static AuditRecord event(String tool) {
        return new AuditRecord(1L, "default", "client", "alice", "tools/call", tool, "b", "allow", "trace", JsonValue.EMPTY_JSON_OBJECT,
                "ok", 3L);
    }

    @Test
    void anInterruptedCallerReturnsOnceItsEventIsWrittenAndKeepsItsInterrupt() {
        start(Duration.ofSeconds(5), true);
        Thread.currentThread().interrupt();
        log.record(event("cancelled-call"));
        assertTrue(Thread.interrupted(), "the caller's interrupt is restored");
        assertEquals(List.of("cancelled-call"), writer.written, "written before record() returned");
        assertEquals(List.of("audit-writer x1"), writer.writes, "by the writer thread, not interrupted");
    }

    @Test
    void oneCommitReleasesEveryCallerThatWaitedForIt() throws Exception {
        writer.hold = true;
        start(Duration.ofSeconds(5), true);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> log.record(event("first")), callers);
        assertTrue(writer.holding.await(5, TimeUnit.SECONDS));
        List<CompletableFuture<Void>> waiting = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String tool = "waiting-" + i;
            waiting.add(CompletableFuture.runAsync(() -> log.record(event(tool)), callers));
        }
        Thread.sleep(300);
        assertFalse(first.isDone(), "no answer before its commit");
        assertTrue(waiting.stream().noneMatch(CompletableFuture::isDone));
        writer.release.countDown();
        first.get(5, TimeUnit.SECONDS);
        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
        assertEquals(List.of("audit-writer x1", "audit-writer x10"), writer.writes, "the ten waiting events in one commit");
    }

    @Test
    void aDatabaseThatIsDownFailsTheWaitingCallerRefusesNewCallsAndGetsTheEventLater() throws Exception {
        writer.down = true;
        start(Duration.ofMillis(300), true);
        AuditUnavailableException late = assertThrows(AuditUnavailableException.class, () -> log.record(event("during-outage")));
        assertTrue(late.getMessage().contains("not answering"), late.getMessage());
        assertThrows(AuditUnavailableException.class, log::checkWriting, "no call runs that could not be audited");
        writer.down = false;
        long deadline = System.currentTimeMillis() + 5_000;
        while (writer.written.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(List.of("during-outage"), writer.written, "the call ran, so its event is still written");
        log.checkWriting();
        log.record(event("after"));
        assertEquals(List.of("during-outage", "after"), writer.written);
    }

    @Test
    void anEventTheDatabaseRefusesCannotHoldBackTheOthers() throws Exception {
        writer.hold = true;
        start(Duration.ofSeconds(5), true);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> log.record(event("first")), callers);
        assertTrue(writer.holding.await(5, TimeUnit.SECONDS));
        CompletableFuture<Void> before = CompletableFuture.runAsync(() -> log.record(event("before")), callers);
        Thread.sleep(100);
        CompletableFuture<Void> poison = CompletableFuture.runAsync(() -> log.record(event("poison")), callers);
        Thread.sleep(100);
        CompletableFuture<Void> after = CompletableFuture.runAsync(() -> log.record(event("after")), callers);
        Thread.sleep(100);
        writer.release.countDown();
        first.get(5, TimeUnit.SECONDS);
        before.get(5, TimeUnit.SECONDS);
        after.get(5, TimeUnit.SECONDS);
        Exception refused = assertThrows(Exception.class, () -> poison.get(5, TimeUnit.SECONDS));
        assertTrue(refused.getCause() instanceof AuditUnavailableException, refused.toString());
        assertEquals(List.of("first", "before", "after"), writer.written);
        log.checkWriting();
    }

    @Test
    void aConflictWithAnotherWriterIsRetriedUntilItGoesThrough() {
        // deadlocks, and sequence numbers another writer took without the lock, more often than an event may be refused
        writer.conflicts.set(5);
        start(Duration.ofSeconds(10), true);
        log.record(event("contended"));
        assertEquals(List.of("contended"), writer.written);
        assertEquals(6, writer.writes.size(), writer.writes::toString);
    }

    @Test
    void withoutWaitForCommitTheCallerReturnsOnceQueued() throws Exception {
        writer.hold = true;
        start(Duration.ofSeconds(5), false);
        log.record(event("queued"));
        assertTrue(writer.holding.await(5, TimeUnit.SECONDS));
        assertTrue(writer.written.isEmpty(), "returned before the write");
    }
}
