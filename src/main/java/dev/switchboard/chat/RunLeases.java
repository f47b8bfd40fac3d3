package dev.switchboard.chat;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The owner leases of chat runs waiting for approvals: this member's id (host and a random part, new at every start,
 * so a restarted member does not take its dead runs for its own), the lease it holds on a waiting run's message
 * ({@code switchboard.chat.run-lease}, 30 s), and the sweep that, on every member and at every
 * {@code switchboard.chat.run-lease-sweep} (10 s), cancels the pending calls of messages whose lease ran out: their
 * member died or was killed, so nobody would ever run or refuse them. A single instance sweeps too: after a crash
 * and restart, the runs of before are cancelled the same way.
 */
@ApplicationScoped
public class RunLeases {

    private static final Logger LOG = Logger.getLogger(RunLeases.class.getName());

    @Inject
    ApprovalStore store;

    @Resource
    ManagedScheduledExecutorService executor;

    @Inject
    @ConfigProperty(name = "switchboard.chat.run-lease", defaultValue = "PT30S")
    Duration length;

    @Inject
    @ConfigProperty(name = "switchboard.chat.run-lease-sweep", defaultValue = "PT10S")
    Duration sweepInterval;

    private final String member = memberId();
    private ScheduledFuture<?> sweeping;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        sweeping = executor.scheduleWithFixedDelay(this::sweep, sweepInterval.toMillis(), sweepInterval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (sweeping != null) {
            sweeping.cancel(false);
        }
    }

    /** The lease a run of this member holds while it waits. */
    OwnerLease lease() {
        return new OwnerLease(member, length);
    }

    /** Cancels what runs of dead members left pending; answers how many calls it cancelled. */
    int sweep() {
        int cancelled = 0;
        try {
            long now = System.currentTimeMillis();
            for (long messageId : store.expiredLeases(now)) {
                List<ToolCallRecord> calls = store.cancelOrphaned(messageId, now);
                if (!calls.isEmpty()) {
                    LOG.warning(() -> "Cancelled " + calls.size() + " tool call(s) of chat message " + messageId
                            + " that waited for approval: the member running it stopped renewing its lease");
                }
                cancelled += calls.size();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The sweep of expired chat run leases failed; the next one retries", e);
        }
        return cancelled;
    }

    private static String memberId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        String id = host + "/" + UUID.randomUUID().toString().substring(0, 8);
        return id.length() <= 128 ? id : id.substring(id.length() - 128);
    }
}
