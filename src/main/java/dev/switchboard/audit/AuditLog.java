package dev.switchboard.audit;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where every room reports audited actions. Writing is asynchronous (callers do not wait for the database) but
 * bounded and lossless: a full queue makes the caller wait up to {@code switchboard.audit.enqueue-timeout}, then
 * write its event itself; the queue is drained on shutdown; a failed batch is retried before anything is dropped,
 * and a drop is logged at SEVERE with the event's identity.
 */
@ApplicationScoped
public class AuditLog {

    private static final Logger LOG = Logger.getLogger(AuditLog.class.getName());
    private static final int MAX_BATCH = 200;
    private static final int ATTEMPTS = 3;
    /**
     * How long the writer waits for more events after the first of a batch: a few milliseconds later in the table,
     * far fewer commits under load (one per event was a visible share of the gateway's CPU per call).
     */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    @Inject
    AuditWriter writer;

    @Resource
    ManagedThreadFactory threads;

    @Inject
    @ConfigProperty(name = "switchboard.audit.queue-capacity", defaultValue = "10000")
    int capacity;

    @Inject
    @ConfigProperty(name = "switchboard.audit.enqueue-timeout", defaultValue = "PT2S")
    Duration enqueueTimeout;

    /** Chain ends of the batches committed by this instance; only touched while holding this object's lock. */
    private final Map<String, AuditChain.Head> heads = new HashMap<>();
    private BlockingQueue<AuditRecord> queue;
    private Thread drainer;
    private volatile boolean running;

    @PostConstruct
    void start() {
        queue = new ArrayBlockingQueue<>(capacity);
        running = true;
        drainer = threads.newThread(this::drain);
        drainer.setName("audit-writer");
        drainer.start();
    }

    /**
     * Records one event; returns once it is queued (or written, when the queue stayed full). The caller's interrupt
     * status is set aside meanwhile and restored after: a cancelled gateway call's worker arrives here interrupted,
     * and an interrupted thread can neither wait on the queue nor write, since H2 closes its database file (the whole
     * database, until a restart) when the thread writing it is interrupted.
     */
    public void record(AuditRecord record) {
        boolean interrupted = Thread.interrupted();
        boolean queued = false;
        try {
            queued = running && queue.offer(record, enqueueTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        try {
            if (!queued) {
                writeWithRetries(List.of(record));
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Events still waiting to be written (for metrics and tests). */
    public int pending() {
        return queue.size();
    }

    private void drain() {
        List<AuditRecord> batch = new ArrayList<>(MAX_BATCH);
        while (running || !queue.isEmpty()) {
            try {
                AuditRecord first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                collectMore(batch);
                writeWithRetries(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } finally {
                batch.clear();
            }
        }
    }

    /** Adds what arrives within the linger time, up to a full batch. */
    private void collectMore(List<AuditRecord> batch) throws InterruptedException {
        long deadline = System.nanoTime() + LINGER_NANOS;
        queue.drainTo(batch, MAX_BATCH - batch.size());
        while (batch.size() < MAX_BATCH && running) {
            long left = deadline - System.nanoTime();
            AuditRecord next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
            if (next == null) {
                return;
            }
            batch.add(next);
            queue.drainTo(batch, MAX_BATCH - batch.size());
        }
    }

    private synchronized void writeWithRetries(List<AuditRecord> batch) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                // write() returned: its transaction committed, so these are the chains' real ends
                heads.putAll(writer.write(batch, heads));
                return;
            } catch (RuntimeException e) {
                // rolled back, or another instance appended: read every head again
                heads.clear();
                if (attempt == ATTEMPTS) {
                    batch.forEach(r -> LOG.log(Level.SEVERE, "Audit event NOT written: " + r.action() + " " + r.tool()
                            + " tenant " + r.tenantId() + " trace " + r.traceId() + " at " + r.ts(), e));
                }
            }
        }
    }

    /** Flush on shutdown: stop taking new events into the queue, write what is in it. */
    @PreDestroy
    void stop() {
        running = false;
        try {
            drainer.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<AuditRecord> rest = new ArrayList<>();
        queue.drainTo(rest);
        if (!rest.isEmpty()) {
            writeWithRetries(rest);
        }
    }
}
