package dev.switchboard.sql.server;

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

/**
 * Ends query sessions idle past {@code query.session.ttl} and tells the dialect connections that used them
 * ({@code session.expired}), every {@code query.session.sweep-interval}, on a non-persistent EJB interval timer like
 * the other sweeps: a missed sweep needs no catching up, the next one does the same work.
 */
@Singleton
@Startup
public class QuerySessionExpiry {

    @Resource
    TimerService timers;

    @Inject
    QuerySessions sessions;

    @Inject
    @ConfigProperty(name = "query.session.sweep-interval", defaultValue = "PT10S")
    Duration interval;

    @PostConstruct
    void schedule() {
        timers.createIntervalTimer(interval.toMillis(), interval.toMillis(), new TimerConfig("query-session-expiry", false));
    }

    @Timeout
    void sweep() {
        sessions.watch().sweep();
    }
}
