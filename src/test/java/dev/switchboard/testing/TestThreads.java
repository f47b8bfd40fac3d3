package dev.switchboard.testing;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The two thread pools a connector needs, as the tests stand in for the server's managed executors. */
public final class TestThreads implements AutoCloseable {

    private final ExecutorService executor = Executors.newCachedThreadPool(daemon("mcp-test-worker"));
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(daemon("mcp-test-deadlines"));

    public ExecutorService executor() {
        return executor;
    }

    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    @Override
    public void close() throws InterruptedException {
        scheduler.shutdownNow();
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
