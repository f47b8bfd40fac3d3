package dev.switchboard.gateway;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Managed threads for the gateway's work: serving client requests and listing backends in parallel. Each of these
 * waits on backends (bounded by their deadlines), so they get threads of their own instead of blocking the
 * container's shared pool; past the cap, work is refused at once rather than queued.
 */
@ApplicationScoped
public class GatewayThreads {

    /** Requests in flight plus parallel listings at one time; beyond this the gateway answers an error. */
    private static final int MAX_THREADS = 256;

    @Resource
    ManagedThreadFactory threadFactory;

    private ExecutorService executor;

    @PostConstruct
    void start() {
        executor = new ThreadPoolExecutor(0, MAX_THREADS, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), threadFactory);
    }

    public ExecutorService executor() {
        return executor;
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }
}
