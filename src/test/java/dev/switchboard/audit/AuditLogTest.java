package dev.switchboard.audit;

import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A caller that arrives interrupted (a cancelled gateway call's worker) gets its event recorded and its interrupt
 * back, and no write ever runs on an interrupted thread: H2 closes the whole database when one does.
 */
class AuditLogTest {

    /** Records, per write, which thread wrote and whether it was interrupted; can hold the drainer back. */
    static final class WatchingWriter extends AuditWriter {
        final List<String> writes = new CopyOnWriteArrayList<>();
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean hold;

        @Override
        public Map<String, AuditChain.Head> write(List<AuditRecord> batch, Map<String, AuditChain.Head> knownHeads) {
            writes.add(Thread.currentThread().getName() + (Thread.currentThread().isInterrupted() ? " interrupted" : "") + " x" + batch.size());
            if (hold && Thread.currentThread().getName().equals("audit-writer")) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Map.of();
        }
    }

    private final WatchingWriter writer = new WatchingWriter();
    private final AuditLog log = new AuditLog();

    private void start(int capacity) {
        log.writer = writer;
        log.capacity = capacity;
        log.enqueueTimeout = Duration.ofMillis(50);
        log.threads = new ManagedThreadFactory() {
            @Override
            public Thread newThread(Runnable r) {
                return new Thread(r);
            }

            @Override
            public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
                throw new UnsupportedOperationException();
            }
        };
        log.start();
    }

    @AfterEach
    void stop() {
        writer.release.countDown();
        log.stop();
        Thread.interrupted();
    }

    private static AuditRecord event(String tool) {
        return new AuditRecord(1L, "default", "client", "alice", "tools/call", tool, "b", "allow", "trace", JsonValue.EMPTY_JSON_OBJECT,
                "ok", 3L);
    }

    @Test
    void anInterruptedCallerQueuesItsEventAndKeepsItsInterrupt() throws Exception {
        start(10);
        Thread.currentThread().interrupt();
        log.record(event("cancelled-call"));
        assertTrue(Thread.interrupted(), "the caller's interrupt is restored");
        long deadline = System.currentTimeMillis() + 5_000;
        while (writer.writes.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(List.of("audit-writer x1"), writer.writes, "queued and written by the writer thread");
    }

    @Test
    void anInterruptedCallerFacingAFullQueueWritesItselfUninterrupted() throws Exception {
        writer.hold = true;
        start(1);
        log.record(event("taken by the writer, which holds"));
        long deadline = System.currentTimeMillis() + 5_000;
        while (writer.writes.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        log.record(event("fills the queue"));
        Thread.currentThread().interrupt();
        log.record(event("finds it full"));
        assertTrue(Thread.interrupted(), "the caller's interrupt is restored");
        String caller = Thread.currentThread().getName();
        assertTrue(writer.writes.contains(caller + " x1"), writer.writes::toString);
        assertFalse(writer.writes.stream().anyMatch(w -> w.contains("interrupted")), writer.writes::toString);
    }
}
