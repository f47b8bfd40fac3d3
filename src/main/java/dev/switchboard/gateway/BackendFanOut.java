package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * Asks several backends the same thing in parallel and keeps the answers that came within one deadline. A backend
 * that fails or is too slow is left out and logged: one broken backend must not fail an aggregated answer.
 */
final class BackendFanOut {

    private static final Logger LOG = Logger.getLogger(BackendFanOut.class.getName());

    /** One backend's part of the work, given the time it may take. */
    @FunctionalInterface
    interface BackendCall<T> {
        T call(GatewayBackend backend, Duration timeout) throws McpException;
    }

    private BackendFanOut() {
    }

    /**
     * @param what names the work in the log
     * @return the answers in the order of {@code backends}, without those left out; what was collected so far when
     * the calling thread is interrupted (its request was cancelled)
     */
    static <T> Map<GatewayBackend, T> collect(List<GatewayBackend> backends, Executor executor, Duration deadline,
                                              String what, BackendCall<T> work) {
        List<CompletableFuture<T>> futures = new ArrayList<>();
        for (GatewayBackend backend : backends) {
            Duration timeout = backend.timeout().compareTo(deadline) < 0 ? backend.timeout() : deadline;
            futures.add(async(backend, timeout, executor, work));
        }
        long end = System.nanoTime() + deadline.toNanos();
        Map<GatewayBackend, T> answers = new LinkedHashMap<>();
        for (int b = 0; b < backends.size(); b++) {
            GatewayBackend backend = backends.get(b);
            try {
                long wait = Math.max(0, end - System.nanoTime());
                answers.put(backend, futures.get(b).get(wait, TimeUnit.NANOSECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                futures.forEach(f -> f.cancel(true));
                break;
            } catch (ExecutionException | TimeoutException e) {
                String reason = e instanceof TimeoutException ? "no answer within " + deadline.toMillis() + " ms"
                        : JsonRpcPeer.asMcpException(e.getCause()).getMessage();
                LOG.warning(() -> what + " leaves out backend " + backend.name() + ": " + reason);
            }
        }
        return answers;
    }

    private static <T> CompletableFuture<T> async(GatewayBackend backend, Duration timeout, Executor executor,
                                                  BackendCall<T> work) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return work.call(backend, timeout);
                } catch (McpException e) {
                    throw new CompletionException(e);
                }
            }, executor);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.CANCELLED, "no thread free for it"));
        }
    }
}
