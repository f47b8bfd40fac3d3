package dev.switchboard.audit;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import jakarta.json.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Eight audit logs on one database, as eight instances of a cluster would run them (each its own writer thread and
 * its own connections, nothing shared in memory), appending to one tenant's chain at once: every event is written,
 * once, and the chain is whole. Before the lock rows, writers that remembered their own chain end collided on
 * {@code (tenant, seq)} and dropped events after three attempts.
 */
class ConcurrentAuditWritersTest {

    private static final int WRITERS = 8;
    private static final int CALLERS_PER_WRITER = 2;
    private static final int EVENTS_PER_CALLER = 25;

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void eightWritersOnOneTenantLeaveOneWholeChainWithEveryEvent(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            List<AuditLog> logs = new ArrayList<>();
            ExecutorService callers = Executors.newFixedThreadPool(WRITERS * CALLERS_PER_WRITER);
            try {
                for (int i = 0; i < WRITERS; i++) {
                    logs.add(startedLog(new AuditWriter(db.dataSource(), AuditChainTest.SECRETS)));
                }
                CountDownLatch go = new CountDownLatch(1);
                List<CompletableFuture<Void>> done = new ArrayList<>();
                for (int caller = 0; caller < WRITERS * CALLERS_PER_WRITER; caller++) {
                    AuditLog log = logs.get(caller % WRITERS);
                    int id = caller;
                    done.add(CompletableFuture.runAsync(() -> {
                        await(go);
                        for (int n = 0; n < EVENTS_PER_CALLER; n++) {
                            log.record(AuditChainTest.record("acme", "everything__echo",
                                    Json.createObjectBuilder().add("caller", id).add("n", n).build()));
                        }
                    }, callers));
                }
                go.countDown();
                CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            } finally {
                logs.forEach(AuditLog::stop);
                callers.shutdownNow();
            }
            int expected = WRITERS * CALLERS_PER_WRITER * EVENTS_PER_CALLER;
            AuditChain.Verification acme = db.inTransaction(em -> AuditChain.verify(em, "acme"));
            assertTrue(acme.valid(), acme.toString());
            assertEquals(expected, acme.checked(), "every event once");
        }
    }

    private static AuditLog startedLog(AuditWriter writer) {
        AuditLog log = new AuditLog();
        log.writer = writer;
        log.capacity = 1000;
        log.commitTimeout = Duration.ofSeconds(60);
        log.waitForCommit = true;
        log.threads = TestThreads.FACTORY;
        log.start();
        return log;
    }

    private static void await(CountDownLatch go) {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
