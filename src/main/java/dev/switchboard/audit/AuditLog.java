package dev.switchboard.audit;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where every room reports audited actions, with group commit: a caller queues its event and waits until it is in the
 * database; one writer thread takes everything waiting, commits it in one transaction and then releases all those
 * callers at once, so under load one commit serves many calls, and an idle system commits each event at once (no
 * lingering). The queue is bounded; a caller waits at most {@code switchboard.audit.commit-timeout} in all, then gets
 * {@link AuditUnavailableException} and must withhold its answer.
 * <p>
 * Nothing is dropped while the database can take it: a failed batch is written again event by event, so one event the
 * database refuses cannot hold back the others; an event is retried without limit while the database does not answer
 * (calls are then refused before they run, {@link #checkWriting()}) or another writer holds its tenant's chain
 * (deadlock, lock wait), and given up (logged at SEVERE, its caller told) only when the database answers and still
 * refuses that one event. On shutdown the queue is written out, for at most {@link #SHUTDOWN_GRACE}.
 */
@ApplicationScoped
public class AuditLog implements AuditTrail {

    private static final Logger LOG = Logger.getLogger(AuditLog.class.getName());
    private static final int MAX_BATCH = 200;
    /** Refusals of one event, while the database answers, before that event is given up. */
    private static final int REFUSALS = 3;
    private static final long FIRST_BACKOFF_MILLIS = 50;
    private static final long MAX_BACKOFF_MILLIS = 2_000;
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);
    /**
     * Only without {@code wait-for-commit}: how long the writer waits for more events after the first of a batch (a
     * few milliseconds later in the table, far fewer commits). A caller who waits for the commit would wait that long.
     */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** One event, and the answer held back until it is written. */
    private record Pending(AuditRecord record, CompletableFuture<Void> written) {
    }

    @Inject
    AuditWriter writer;

    @Resource
    ManagedThreadFactory threads;

    @Inject
    @ConfigProperty(name = "switchboard.audit.queue-capacity", defaultValue = "10000")
    int capacity;

    @Inject
    @ConfigProperty(name = "switchboard.audit.commit-timeout", defaultValue = "PT5S")
    Duration commitTimeout;

    /** Off only to measure what durability costs (bench/gateway.mjs); announced as a WARNING at start. */
    @Inject
    @ConfigProperty(name = "switchboard.audit.wait-for-commit", defaultValue = "true")
    boolean waitForCommit;

    private BlockingQueue<Pending> queue;
    private Thread drainer;
    private volatile boolean running;
    /** Set while the database does not answer the writer: calls are refused before they run. */
    private volatile boolean databaseDown;

    @PostConstruct
    void start() {
        if (!waitForCommit) {
            LOG.warning("AUDIT ROWS ARE WRITTEN AFTER THE ANSWER (SWITCHBOARD_AUDIT_WAIT_FOR_COMMIT=false): a crash loses the "
                    + "newest rows of calls already answered. Meant for measuring what durability costs only.");
        }
        queue = new ArrayBlockingQueue<>(capacity);
        running = true;
        drainer = threads.newThread(this::drain);
        drainer.setName("audit-writer");
        drainer.start();
    }

    /**
     * Records one event; returns once it is committed (or, without {@code wait-for-commit}, queued). The caller's
     * interrupt status is set aside meanwhile and restored after: a cancelled gateway call's worker arrives here
     * interrupted, and its event must be written all the same.
     *
     * @throws AuditUnavailableException when the event was not durable within {@code commit-timeout}; it stays
     *                                   queued and is written when the database takes it (the call did run)
     */
    @Override
    public void record(AuditRecord record) {
        long deadline = System.nanoTime() + commitTimeout.toNanos();
        Pending pending = new Pending(record, new CompletableFuture<>());
        boolean interrupted = Thread.interrupted();
        try {
            boolean queued = false;
            while (!queued) {
                long left = deadline - System.nanoTime();
                if (!running || left <= 0) {
                    throw new AuditUnavailableException(running ? "the audit queue stayed full for " + commitTimeout
                            : "the audit log is shutting down");
                }
                try {
                    queued = queue.offer(pending, left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            while (waitForCommit) {
                try {
                    pending.written().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (TimeoutException e) {
                    throw new AuditUnavailableException("the audit event was not written within " + commitTimeout
                            + (databaseDown ? ": the audit database is not answering" : ""));
                } catch (ExecutionException e) {
                    throw new AuditUnavailableException("the audit database refused the event: " + e.getCause().getMessage());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void checkWriting() {
        if (!running) {
            throw new AuditUnavailableException("the audit log is shutting down");
        }
        if (databaseDown) {
            throw new AuditUnavailableException("the audit database is not answering; calls are refused until it does");
        }
        if (queue.remainingCapacity() == 0) {
            throw new AuditUnavailableException("the audit queue is full");
        }
    }

    private void drain() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH);
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - batch.size());
                if (!waitForCommit) {
                    lingerForMore(batch);
                }
                commit(batch);
            } catch (InterruptedException e) {
                // interrupted by stop() after its grace: what this batch holds is not written
                abandon(batch);
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void lingerForMore(List<Pending> batch) throws InterruptedException {
        long deadline = System.nanoTime() + LINGER_NANOS;
        while (batch.size() < MAX_BATCH && running) {
            long left = deadline - System.nanoTime();
            Pending next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
            if (next == null) {
                return;
            }
            batch.add(next);
            queue.drainTo(batch, MAX_BATCH - batch.size());
        }
    }

    /** Writes the batch and releases its callers; when the batch fails, its events one by one. */
    private void commit(List<Pending> batch) throws InterruptedException {
        if (batch.size() > 1 && write(batch) == null) {
            return;
        }
        for (Pending pending : batch) {
            commitAlone(pending);
        }
    }

    private void commitAlone(Pending pending) throws InterruptedException {
        int refusals = 0;
        long backoff = FIRST_BACKOFF_MILLIS;
        Exception failure;
        while ((failure = write(List.of(pending))) != null) {
            if (!isConflict(failure)) {
                databaseDown = !writer.databaseAnswers();
                if (!databaseDown && ++refusals == REFUSALS) {
                    LOG.log(Level.SEVERE, "Audit event NOT written, the database refuses it: " + identity(pending), failure);
                    pending.written().completeExceptionally(failure);
                    return;
                }
            }
            Thread.sleep(backoff);
            backoff = Math.min(2 * backoff, MAX_BACKOFF_MILLIS);
        }
    }

    /** Writes and releases the events' callers; returns why it failed, null when it committed. */
    private Exception write(List<Pending> events) {
        try {
            writer.write(events.stream().map(Pending::record).toList());
        } catch (SQLException | RuntimeException e) {
            return e;
        }
        databaseDown = false;
        events.forEach(p -> p.written().complete(null));
        return null;
    }

    /**
     * Another writer's turn on the same chain, retried without limit: a deadlock or lock wait timeout (SQLSTATE class
     * 40), or a sequence number another writer took without the tenant's lock (a duplicate key; the retry reads the
     * chain's new end).
     */
    private static boolean isConflict(Exception e) {
        return e instanceof SQLTransactionRollbackException || (e instanceof SQLException sql
                && ((sql.getSQLState() != null && sql.getSQLState().startsWith("40")) || AuditChain.isDuplicateKey(sql)));
    }

    private static void abandon(List<Pending> events) {
        for (Pending pending : events) {
            if (pending.written().completeExceptionally(new IllegalStateException("the audit log stopped before writing it"))) {
                LOG.severe("Audit event NOT written, the audit log stopped first: " + identity(pending));
            }
        }
    }

    private static String identity(Pending pending) {
        AuditRecord r = pending.record();
        return r.action() + " " + r.tool() + " tenant " + r.tenantId() + " trace " + r.traceId() + " at " + r.ts();
    }

    /** On shutdown: take no new events, write what is queued (for at most {@link #SHUTDOWN_GRACE}). */
    @PreDestroy
    void stop() {
        running = false;
        try {
            drainer.join(SHUTDOWN_GRACE.toMillis());
            if (drainer.isAlive()) {
                drainer.interrupt();
                drainer.join(Duration.ofSeconds(5).toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Pending> rest = new ArrayList<>();
        queue.drainTo(rest);
        abandon(rest);
    }
}
