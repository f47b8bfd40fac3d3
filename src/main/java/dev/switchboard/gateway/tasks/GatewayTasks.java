package dev.switchboard.gateway.tasks;

import dev.switchboard.gateway.ClientContext;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.GatewayThreads;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tool calls the gateway runs as tasks (MCP 2025-11-25 tasks) for clients that ask for one, whatever their backend
 * can do: the call goes through the same router stack as any other (policy, audit, traces) on a worker of its own, and
 * its outcome is written to the database, so that a client whose own request would have timed out polls
 * {@code tasks/get} and fetches {@code tasks/result} later, from any instance. A task is deleted after its time to
 * live. Cancelling stops the call when it runs on this instance; on another, the task is marked cancelled at once
 * and the call's outcome is dropped when it comes.
 */
@ApplicationScoped
public class GatewayTasks {

    private static final Logger LOG = Logger.getLogger(GatewayTasks.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    /** This instance, as the {@code run_by} of the tasks it runs. */
    private static final String INSTANCE = UUID.randomUUID().toString();
    /** How often a {@code tasks/result} waiting on a task of another instance reads it again. */
    private static final Duration REMOTE_POLL = Duration.ofMillis(500);

    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private GatewayTaskStore store;
    private Executor workers;
    private TaskSettings settings;

    /** What a running task on this instance holds: its worker (to interrupt) and its end (to wait on). */
    private static final class Running {
        final CompletableFuture<Void> ended = new CompletableFuture<>();
        // guarded by this
        private Thread worker;
        private boolean cancelled;

        /** Marks the worker serving the task; false when the task was cancelled before it started. */
        synchronized boolean startOn(Thread thread) {
            worker = thread;
            return !cancelled;
        }

        synchronized void finished() {
            worker = null;
        }

        synchronized void cancel() {
            cancelled = true;
            if (worker != null) {
                worker.interrupt();
            }
        }
    }

    /** @param defaultTtl a task's time to live when the client asks none; @param maxTtl the longest granted */
    public record TaskSettings(Duration defaultTtl, Duration maxTtl, Duration pollInterval, Duration resultWait) {
    }

    protected GatewayTasks() {
        // for CDI
    }

    @Inject
    GatewayTasks(GatewayTaskStore store, GatewayThreads threads,
                 @ConfigProperty(name = "switchboard.gateway.tasks.default-ttl", defaultValue = "PT1H") Duration defaultTtl,
                 @ConfigProperty(name = "switchboard.gateway.tasks.max-ttl", defaultValue = "PT24H") Duration maxTtl,
                 @ConfigProperty(name = "switchboard.gateway.tasks.poll-interval", defaultValue = "PT1S") Duration pollInterval,
                 @ConfigProperty(name = "switchboard.gateway.tasks.result-wait", defaultValue = "PT5M") Duration resultWait) {
        this(store, threads.executor(), new TaskSettings(defaultTtl, maxTtl, pollInterval, resultWait));
    }

    GatewayTasks(GatewayTaskStore store, Executor workers, TaskSettings settings) {
        this.store = store;
        this.workers = workers;
        this.settings = settings;
    }

    TaskSettings settings() {
        return settings;
    }

    /**
     * Records a working task for {@code request} and starts serving it by {@code serve}.
     *
     * @param requestedTtl the client's {@code task.ttl} in milliseconds, or null
     */
    GatewayTask start(ClientContext caller, JsonRpcMessage request, Long requestedTtl, UnaryOperator<JsonRpcMessage> serve) {
        long now = System.currentTimeMillis();
        store.purgeExpired(now);
        long ttl = requestedTtl == null ? settings.defaultTtl().toMillis()
                : Math.max(1_000, Math.min(requestedTtl, settings.maxTtl().toMillis()));
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        String target = request.params().getString("name", request.method());
        GatewayTask task = new GatewayTask(HexFormat.of().formatHex(id), caller.tenantId(), caller.subject(), request.method(),
                target, INSTANCE, now, ttl);
        store.create(task);
        Running run = new Running();
        running.put(task.getTaskId(), run);
        try {
            workers.execute(() -> run(task.getTaskId(), run, request, serve));
        } catch (RejectedExecutionException e) {
            running.remove(task.getTaskId());
            run.ended.complete(null);
            store.finish(task.getTaskId(), GatewayTask.FAILED, "The gateway is at capacity; the call did not start",
                    "error", GatewayErrors.error(request.id(), GatewayErrors.INTERNAL_ERROR,
                            "The gateway is at capacity or shutting down; retry later", null).json().getJsonObject("error").toString(),
                    System.currentTimeMillis());
        }
        return store.find(task.getTaskId(), caller.tenantId(), caller.subject()).orElse(task);
    }

    private void run(String taskId, Running run, JsonRpcMessage request, UnaryOperator<JsonRpcMessage> serve) {
        try {
            if (!run.startOn(Thread.currentThread())) {
                return;
            }
            JsonRpcMessage response = serve.apply(request);
            if (response.json().get("error") instanceof JsonObject error) {
                store.finish(taskId, GatewayTask.FAILED, error.getString("message", "failed"), "error", error.toString(),
                        System.currentTimeMillis());
            } else {
                JsonObject result = response.json().get("result") instanceof JsonObject r ? r : JsonObject.EMPTY_JSON_OBJECT;
                store.finish(taskId, GatewayTask.COMPLETED, null, "result", result.toString(), System.currentTimeMillis());
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "gateway task " + taskId + " failed", e);
            store.finish(taskId, GatewayTask.FAILED, "Internal error", "error", GatewayErrors.error(request.id(),
                    GatewayErrors.INTERNAL_ERROR, "Internal error", null).json().getJsonObject("error").toString(), System.currentTimeMillis());
        } finally {
            run.finished();
            running.remove(taskId);
            run.ended.complete(null);
            // an interrupt meant for this task must not leak into the pool thread's next work
            Thread.interrupted();
        }
    }

    java.util.List<GatewayTask> list(ClientContext caller, TaskCursor after, int limit) {
        return store.list(caller.tenantId(), caller.subject(), after, limit);
    }

    Optional<GatewayTask> find(ClientContext caller, String taskId) {
        return store.find(taskId, caller.tenantId(), caller.subject());
    }

    /** Cancels the caller's working task (stopping its call when it runs here); the task as it stands after. */
    Optional<GatewayTask> cancel(ClientContext caller, String taskId) {
        if (store.cancel(taskId, caller.tenantId(), caller.subject(), "Cancelled by the client", System.currentTimeMillis())) {
            Running run = running.get(taskId);
            if (run != null) {
                run.cancel();
            }
        }
        return find(caller, taskId);
    }

    /**
     * Waits until the caller's task has ended (at most {@code resultWait}) and returns it as it stands then.
     *
     * @throws TimeoutException when it is still working after that
     */
    Optional<GatewayTask> awaitEnd(ClientContext caller, String taskId) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + settings.resultWait().toNanos();
        while (true) {
            Optional<GatewayTask> task = find(caller, taskId);
            if (task.isEmpty() || task.get().isTerminal()) {
                return task;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            Running run = running.get(taskId);
            long wait = Math.min(left, REMOTE_POLL.toNanos());
            if (run != null) {
                try {
                    run.ended.get(wait, TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
                    // read the row again
                }
            } else {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        }
    }
}
