package dev.switchboard.workspace;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * Deletes workspaces idle past {@code switchboard.workspace.ttl} on a non-persistent interval timer (the chat API's
 * cleanup): non-persistent because a missed sweep needs no catching up, the next one does the same work, and so
 * it needs no timer tables. The interval comes from config so tests can use a short one.
 */
@Singleton
@Startup
public class WorkspaceExpiry {

    private static final Logger LOG = Logger.getLogger(WorkspaceExpiry.class.getName());

    @Resource
    TimerService timers;

    @Inject
    Workspaces workspaces;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.sweep-interval", defaultValue = "PT10M")
    Duration interval;

    @PostConstruct
    void schedule() {
        timers.createIntervalTimer(interval.toMillis(), interval.toMillis(), new TimerConfig("workspace-expiry", false));
    }

    @Timeout
    void sweep() {
        int deleted = workspaces.deleteExpired(Instant.now());
        if (deleted > 0) {
            LOG.info(() -> "Deleted " + deleted + " expired workspace(s) under " + workspaces.root());
        }
    }
}
