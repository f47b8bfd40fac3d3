package dev.switchboard.knowledge;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.logging.Logger;

/**
 * Builds the knowledge indexes at start, then every {@code switchboard.knowledge.refresh-interval} compares the
 * folder's file sizes and modification times with its index, and the revisions of the knowledge documents in the
 * database with theirs (documents another instance of a cluster changed), and rebuilds what differs. A non-persistent EJB interval timer
 * rather than a {@code WatchService}: a watcher needs a thread blocked for the server's lifetime and misses changes
 * on network file systems, while a listing of a small folder every few seconds costs next to nothing and runs on
 * the container's own timer threads.
 */
@Singleton
@Startup
@DependsOn("DatabaseMigrator")
public class KnowledgeRefresher {

    private static final Logger LOG = Logger.getLogger(KnowledgeRefresher.class.getName());

    @Resource
    TimerService timers;

    @Inject
    KnowledgeRetriever retriever;

    @Inject
    DocumentIndexes documents;

    @PostConstruct
    void start() {
        retriever.refreshIfChanged();
        documents.syncAll();
        Duration interval = retriever.settings().refreshInterval();
        timers.createIntervalTimer(interval.toMillis(), interval.toMillis(), new TimerConfig("knowledge-refresh", false));
        LOG.info(() -> "Knowledge base folder " + retriever.settings().folder() + " (" + String.join(", ",
                retriever.settings().extensions()) + ") and knowledge documents are checked for changes every " + interval);
    }

    @Timeout
    void tick() {
        retriever.refreshIfChanged();
        documents.syncAll();
    }
}
