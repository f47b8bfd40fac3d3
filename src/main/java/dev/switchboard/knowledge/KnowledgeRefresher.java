package dev.switchboard.knowledge;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.logging.Logger;

/**
 * Builds the knowledge index at start, then compares the folder's file sizes and modification times with it every
 * {@code switchboard.knowledge.refresh-interval} and rebuilds on a difference. A non-persistent EJB interval timer
 * rather than a {@code WatchService}: a watcher needs a thread blocked for the server's lifetime and misses changes
 * on network file systems, while a listing of a small folder every few seconds costs next to nothing and runs on
 * the container's own timer threads.
 */
@Singleton
@Startup
public class KnowledgeRefresher {

    private static final Logger LOG = Logger.getLogger(KnowledgeRefresher.class.getName());

    @Resource
    TimerService timers;

    @Inject
    KnowledgeRetriever retriever;

    @PostConstruct
    void start() {
        retriever.refreshIfChanged();
        Duration interval = retriever.settings().refreshInterval();
        timers.createIntervalTimer(interval.toMillis(), interval.toMillis(), new TimerConfig("knowledge-refresh", false));
        LOG.info(() -> "Knowledge base folder " + retriever.settings().folder() + " (" + String.join(", ",
                retriever.settings().extensions()) + ") is checked for changes every " + interval);
    }

    @Timeout
    void tick() {
        retriever.refreshIfChanged();
    }
}
