package dev.switchboard.backend.connection;

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
import java.util.logging.Logger;

/**
 * Closes backend connections idle longer than {@code switchboard.pool.idle-timeout} (the MCP client system's default: 30 minutes).
 * A non-persistent EJB interval timer rather than {@code @Schedule}: its period comes from MicroProfile
 * Config ({@code switchboard.pool.reaper-interval}), and a missed tick is simply skipped.
 */
@Singleton
@Startup
public class IdleConnectionReaper {

    private static final Logger LOG = Logger.getLogger(IdleConnectionReaper.class.getName());

    @Resource
    TimerService timers;

    @Inject
    BackendConnections connections;

    @Inject
    @ConfigProperty(name = "switchboard.pool.reaper-interval", defaultValue = "PT1M")
    Duration interval;

    @PostConstruct
    void schedule() {
        long millis = interval.toMillis();
        timers.createIntervalTimer(millis, millis, new TimerConfig("idle-connection-reaper", false));
        LOG.info(() -> "Idle connection reaper runs every " + interval);
    }

    @Timeout
    void reap() {
        int closed = connections.reapIdle();
        if (closed > 0) {
            LOG.info(() -> "Closed " + closed + " idle backend connection(s)");
        }
    }
}
