package dev.switchboard.gateway.modern;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A stateless request whose backend call goes on while the client is asked for input: a session-era backend asked
 * {@code sampling/createMessage}, {@code elicitation/create} or {@code roots/list}, the client got an
 * {@code input_required} result, and the backend waits for the answers its retry brings. The call runs on a worker
 * of its own (not the exchange's), so each HTTP exchange of the round trips only waits for {@link #next}: the
 * outcome, or the questions still open.
 *
 * <p>Each answer of {@code input_required} hands out the next round number; a retry must bring the current one, so a
 * {@code requestState} is good for one retry only.
 */
final class PausedCall {

    /** What an exchange waiting on the call gets: the outcome, or the questions the client has not answered yet. */
    record Next(JsonRpcMessage outcome, Map<String, Question> open) {
    }

    /** A backend's question to the client, by the key the client answers it under. */
    record Question(String method, JsonObject params, CompletableFuture<JsonObject> answer) {
    }

    private final String id;
    private final RequestState.Binding binding;
    private final CompletableFuture<JsonRpcMessage> outcome = new CompletableFuture<>();
    // guarded by this
    private final Map<String, Question> open = new LinkedHashMap<>();
    private int asked;
    private int round;
    private CompletableFuture<Void> changed = new CompletableFuture<>();
    private Thread runner;
    private boolean cancelled;
    private Consumer<JsonObject> progress = p -> { };

    PausedCall(String id, RequestState.Binding binding) {
        this.id = id;
        this.binding = binding;
        outcome.whenComplete((r, e) -> signal());
    }

    String id() {
        return id;
    }

    RequestState.Binding binding() {
        return binding;
    }

    synchronized int round() {
        return round;
    }

    /** Takes the current round for a retry; false when the retry brings another (an old state used again). */
    synchronized boolean takeRound(int claimed) {
        if (claimed != round) {
            return false;
        }
        round++;
        return true;
    }

    /** A backend's question: open until the client answers it or {@code wait} passes. */
    CompletableFuture<JsonObject> ask(String method, JsonObject params, Duration wait) {
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        String key;
        synchronized (this) {
            key = "input-" + (++asked);
            open.put(key, new Question(method, params, answer));
        }
        answer.whenComplete((r, e) -> {
            synchronized (this) {
                open.remove(key);
            }
        });
        CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS).execute(() -> answer.completeExceptionally(
                McpException.rpcError(dev.switchboard.gateway.GatewayErrors.INTERNAL_ERROR, "The client did not answer "
                        + method + " within " + wait.toSeconds() + " s", null)));
        signal();
        return answer;
    }

    /** The questions open now, by key. */
    synchronized Map<String, Question> open() {
        return Map.copyOf(open);
    }

    /** Hands the client's answer to the backend; false when no question is open under that key. */
    boolean answer(String key, JsonObject result) {
        Question question;
        synchronized (this) {
            question = open.get(key);
        }
        return question != null && question.answer().complete(result);
    }

    /**
     * Waits until the call has an outcome or a question the client has not answered.
     *
     * @throws TimeoutException when neither came within {@code wait}
     */
    Next next(Duration wait) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            CompletableFuture<Void> change;
            synchronized (this) {
                if (outcome.isDone()) {
                    return new Next(outcome.join(), Map.of());
                }
                if (!open.isEmpty()) {
                    return new Next(null, Map.copyOf(open));
                }
                change = changed;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            try {
                change.get(left, TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Where the backend's progress notifications go now: to the exchange waiting on the call. */
    synchronized void progressTo(Consumer<JsonObject> sink) {
        progress = sink == null ? p -> { } : sink;
    }

    void progress(JsonObject notification) {
        Consumer<JsonObject> sink;
        synchronized (this) {
            sink = progress;
        }
        sink.accept(notification);
    }

    /** Marks the worker running the backend call, so that {@link #cancel} can interrupt it. */
    synchronized boolean startOn(Thread worker) {
        runner = worker;
        return !cancelled;
    }

    synchronized void finished() {
        runner = null;
    }

    void complete(JsonRpcMessage response) {
        outcome.complete(response);
    }

    CompletableFuture<JsonRpcMessage> outcome() {
        return outcome;
    }

    /** Stops the backend call (its client sends {@code notifications/cancelled}); idempotent. */
    synchronized void cancel() {
        cancelled = true;
        if (runner != null) {
            runner.interrupt();
        }
    }

    private void signal() {
        CompletableFuture<Void> done;
        synchronized (this) {
            done = changed;
            changed = new CompletableFuture<>();
        }
        done.complete(null);
    }
}
