package dev.switchboard.mcp;

import dev.switchboard.mcp.transport.McpTransport;
import dev.switchboard.platform.json.JsonProviders;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The client side of a JSON-RPC session over one {@link McpTransport}: correlates responses with requests
 * by id, enforces each request's deadline, cancels abandoned requests with {@code notifications/cancelled},
 * routes progress to the call that asked for it, answers the server's {@code ping} and hands the server's other
 * requests to the handler of the call they belong to.
 */
public final class JsonRpcPeer implements McpTransport.Listener {

    private static final Logger LOG = Logger.getLogger(JsonRpcPeer.class.getName());
    /** JSON-RPC "method not found". */
    public static final int METHOD_NOT_FOUND = JsonRpcErrorCodes.METHOD_NOT_FOUND;
    /** JSON-RPC "internal error". */
    public static final int INTERNAL_ERROR = JsonRpcErrorCodes.INTERNAL_ERROR;
    /** How long sending a notification (cancelled, initialized) may take. */
    private static final Duration NOTIFICATION_TIMEOUT = Duration.ofSeconds(5);
    /** Slack on top of a request's own deadline before a blocked caller gives up on the timer. */
    private static final long WAIT_SLACK_MILLIS = 2_000;

    private record Pending(String method, JsonValue id, CompletableFuture<JsonObject> future,
                           Consumer<JsonObject> progress, ServerRequestHandler serverRequests) {
    }

    /**
     * Hands one request's progress to its caller until the caller has the answer, and never after. Progress may come
     * on another thread than the response (a backend's GET stream while the answer comes on the POST stream);
     * closing waits for a progress being handed over, so all the caller relays is out before it goes on with the
     * answer, and none follows it.
     */
    private static final class ProgressGate implements Consumer<JsonObject> {

        private final Consumer<JsonObject> progress;
        // guarded by this
        private boolean open = true;

        ProgressGate(Consumer<JsonObject> progress) {
            this.progress = progress;
        }

        @Override
        public synchronized void accept(JsonObject params) {
            if (open) {
                progress.accept(params);
            }
        }

        synchronized void close() {
            open = false;
        }
    }

    private final McpTransport transport;
    private final Executor executor;
    private final ScheduledExecutorService scheduler;
    private final TrafficListener traffic;
    private final AtomicLong nextId = new AtomicLong();
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private volatile Function<String, ServerRequestHandler> outsideCalls = method -> null;
    private final Map<String, Pending> progressRoutes = new ConcurrentHashMap<>();
    private final Map<String, List<Consumer<JsonObject>>> notificationListeners = new ConcurrentHashMap<>();
    private final List<Consumer<McpException>> lostListeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    public JsonRpcPeer(McpTransport transport, Executor executor, ScheduledExecutorService scheduler,
                       TrafficListener traffic) {
        this.transport = transport;
        this.executor = executor;
        this.scheduler = scheduler;
        this.traffic = traffic == null ? TrafficListener.NONE : traffic;
    }

    public void start(Duration timeout) throws McpException {
        transport.start(this, timeout);
    }

    public McpTransport transport() {
        return transport;
    }

    /**
     * Who answers a request of the server that belongs to no request in flight (a backend asking {@code roots/list}
     * on its own); the finder gets the method and returns null when nobody can be asked, and the request is then
     * answered as before (an empty root list, or method not found).
     */
    public void onServerRequestOutsideCalls(Function<String, ServerRequestHandler> finder) {
        outsideCalls = finder;
    }

    /**
     * Sends a request and waits for its result; on deadline or interrupt the request is cancelled at the peer. The
     * transport may do the exchange on this thread (it waits anyway), see {@link McpTransport#send(JsonRpcMessage,
     * Duration, CompletableFuture, boolean)}.
     */
    public JsonObject request(String method, JsonObject params, Duration timeout, Consumer<JsonObject> progress)
            throws McpException {
        return request(method, params, timeout, progress, null);
    }

    /**
     * As {@link #request(String, JsonObject, Duration, Consumer)}; {@code serverRequests} answers the requests the
     * server sends while serving this one (null: they are refused as without it).
     */
    public JsonObject request(String method, JsonObject params, Duration timeout, Consumer<JsonObject> progress,
                              ServerRequestHandler serverRequests) throws McpException {
        ProgressGate gate = progress == null ? null : new ProgressGate(progress);
        CompletableFuture<JsonObject> future = requestAsync(method, params, timeout, gate, serverRequests, true);
        try {
            return future.get(timeout.toMillis() + WAIT_SLACK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new McpException(McpException.Kind.CANCELLED, method + " cancelled: caller interrupted");
        } catch (ExecutionException e) {
            throw asMcpException(e.getCause());
        } catch (TimeoutException e) {
            // only reachable if the scheduler did not run the deadline; fail the same way it would have
            future.cancel(true);
            throw timeout(method, timeout);
        } catch (CancellationException e) {
            throw new McpException(McpException.Kind.CANCELLED, method + " cancelled"
                    + (Thread.currentThread().isInterrupted() ? ": caller interrupted" : ""));
        } finally {
            if (gate != null) {
                gate.close();
            }
        }
    }

    /**
     * Sends a request. The future completes with the result object, or fails with {@link McpException}
     * (TIMEOUT when the deadline passes). Cancelling the future sends {@code notifications/cancelled}.
     *
     * @param progress receives this request's {@code notifications/progress} params, on the reader thread; or null
     */
    public CompletableFuture<JsonObject> requestAsync(String method, JsonObject params, Duration timeout,
                                                      Consumer<JsonObject> progress) {
        return requestAsync(method, params, timeout, progress, null, false);
    }

    private CompletableFuture<JsonObject> requestAsync(String method, JsonObject params, Duration timeout,
                                                       Consumer<JsonObject> progress, ServerRequestHandler serverRequests,
                                                       boolean callerWaits) {
        long n = nextId.incrementAndGet();
        JsonValue id = JsonProviders.JSON.createValue(n);
        String key = id.toString();
        String progressToken = progress == null ? null : "sb-progress-" + n;
        JsonObject effectiveParams = progressToken == null ? params : withProgressToken(params, progressToken);
        CompletableFuture<JsonObject> future = new CompletableFuture<>();
        Pending call = new Pending(method, id, future, progress, serverRequests);
        if (closed.get()) {
            future.completeExceptionally(new McpException(McpException.Kind.CLOSED, method + ": connection is closed"));
            return future;
        }
        pending.put(key, call);
        if (progressToken != null) {
            progressRoutes.put(progressToken, call);
        }
        ScheduledFuture<?> deadline = scheduler.schedule(() -> {
            if (future.completeExceptionally(timeout(method, timeout))) {
                sendCancelled(method, id, "timeout after " + timeout.toMillis() + " ms");
            }
        }, timeout.toMillis(), TimeUnit.MILLISECONDS);
        future.whenComplete((result, error) -> {
            pending.remove(key);
            if (progressToken != null) {
                progressRoutes.remove(progressToken);
            }
            deadline.cancel(false);
            if (error instanceof CancellationException) {
                sendCancelled(method, id, "cancelled by caller");
            }
        });
        send(JsonRpcMessage.request(id, method, effectiveParams), timeout, future, callerWaits).whenComplete((v, error) -> {
            McpException failure = error == null ? null : asMcpException(error);
            if (failure != null && failure.kind() == McpException.Kind.CANCELLED) {
                // the caller's thread was interrupted in the exchange: cancel as an interrupted wait would
                future.cancel(true);
            } else if (failure != null) {
                future.completeExceptionally(failure);
            }
        });
        return future;
    }

    /** Sends a notification and waits until the transport accepted it. */
    public void notify(String method, JsonObject params) throws McpException {
        try {
            send(JsonRpcMessage.notification(method, params), NOTIFICATION_TIMEOUT)
                    .get(NOTIFICATION_TIMEOUT.toMillis() + WAIT_SLACK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new McpException(McpException.Kind.CANCELLED, method + " interrupted");
        } catch (ExecutionException e) {
            throw asMcpException(e.getCause());
        } catch (TimeoutException e) {
            throw timeout(method, NOTIFICATION_TIMEOUT);
        }
    }

    /** Registers a listener for a server notification method; called on the executor, not the reader thread. */
    public void onNotification(String method, Consumer<JsonObject> listener) {
        notificationListeners.computeIfAbsent(method, m -> new CopyOnWriteArrayList<>()).add(listener);
    }

    /** Called once when the transport reports the connection gone, not after {@link #close()}. */
    public void onConnectionLost(Consumer<McpException> listener) {
        lostListeners.add(listener);
    }

    public boolean isOpen() {
        return !closed.get();
    }

    public void close() {
        if (closed.compareAndSet(false, true)) {
            failAllPending(new McpException(McpException.Kind.CLOSED, "connection closed by client"));
            transport.close();
        }
    }

    @Override
    public void onMessage(JsonRpcMessage message) {
        onMessage(message, null);
    }

    @Override
    public void onMessage(JsonRpcMessage message, String relatedIdKey) {
        traffic.inbound(message.json());
        switch (message.kind()) {
            case RESPONSE -> completeRequest(message);
            case REQUEST -> answerServerRequest(message, relatedIdKey);
            case NOTIFICATION -> dispatchNotification(message);
            case INVALID -> LOG.fine(() -> "ignoring message that is not JSON-RPC: " + message.toJson());
        }
    }

    @Override
    public void onClosed(McpException cause) {
        if (closed.compareAndSet(false, true)) {
            failAllPending(cause);
            transport.close();
            for (Consumer<McpException> listener : lostListeners) {
                runOnExecutor(() -> listener.accept(cause));
            }
        }
    }

    private void completeRequest(JsonRpcMessage message) {
        Pending call = pending.remove(message.idKey());
        if (call == null) {
            // a response after we cancelled or timed out: the caller already has its answer
            LOG.fine(() -> "dropping response for unknown or abandoned request " + message.idKey());
            return;
        }
        JsonObject json = message.json();
        JsonValue error = json.get("error");
        if (error instanceof JsonObject errorObject) {
            JsonValue code = errorObject.get("code");
            int codeValue = code instanceof jakarta.json.JsonNumber number ? number.intValue() : 0;
            call.future.completeExceptionally(McpException.rpcError(codeValue,
                    call.method + ": " + errorObject.getString("message", "error " + codeValue), errorObject.get("data")));
        } else if (json.get("result") instanceof JsonObject result) {
            call.future.complete(result);
        } else {
            call.future.completeExceptionally(new McpException(McpException.Kind.PROTOCOL,
                    call.method + ": response has neither a result object nor an error: " + JsonRpcMessage.excerpt(message.toJson())));
        }
    }

    private void answerServerRequest(JsonRpcMessage request, String relatedIdKey) {
        if ("ping".equals(request.method())) {
            reply(request, JsonRpcMessage.result(request.id(), JsonValue.EMPTY_JSON_OBJECT));
            return;
        }
        ServerRequestHandler handler = handlerFor(relatedIdKey);
        if (handler == null) {
            handler = outsideCallsHandler(request.method());
        }
        if (handler == null) {
            reply(request, "roots/list".equals(request.method())
                    // we declare roots so a backend can reach a gateway client's roots; outside a call there are none
                    ? JsonRpcMessage.result(request.id(), JsonProviders.JSON.createObjectBuilder()
                            .add("roots", JsonValue.EMPTY_JSON_ARRAY).build())
                    : JsonRpcMessage.error(request.id(), METHOD_NOT_FOUND, "Method not found: " + request.method()));
            return;
        }
        CompletableFuture<JsonObject> answer;
        try {
            answer = handler.handle(request.method(), request.params());
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((result, error) -> reply(request, error == null
                ? JsonRpcMessage.result(request.id(), result)
                : errorAnswer(request, asMcpException(error))));
    }

    /**
     * The handler of the request a server request belongs to: the one whose answer stream carried it, else (stdio
     * and GET streams say nothing about it) the newest request in flight that has a handler.
     */
    private ServerRequestHandler handlerFor(String relatedIdKey) {
        Pending related = relatedIdKey == null ? null : pending.get(relatedIdKey);
        if (related != null && related.serverRequests != null) {
            return related.serverRequests;
        }
        return pending.values().stream().filter(p -> p.serverRequests != null)
                .max(Comparator.comparingLong(p -> p.id instanceof JsonNumber n ? n.longValue() : 0))
                .map(Pending::serverRequests).orElse(null);
    }

    private ServerRequestHandler outsideCallsHandler(String method) {
        try {
            return outsideCalls.apply(method);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "finding who answers " + method + " failed", e);
            return null;
        }
    }

    private static JsonRpcMessage errorAnswer(JsonRpcMessage request, McpException error) {
        if (error.kind() != McpException.Kind.RPC_ERROR) {
            return JsonRpcMessage.error(request.id(), INTERNAL_ERROR, request.method() + " failed: " + error.getMessage());
        }
        JsonObjectBuilder body = JsonProviders.JSON.createObjectBuilder().add("code", error.rpcCode())
                .add("message", String.valueOf(error.getMessage()));
        if (error.rpcData() != null) {
            body.add("data", error.rpcData());
        }
        return new JsonRpcMessage(JsonProviders.JSON.createObjectBuilder().add("jsonrpc", "2.0").add("id", request.id())
                .add("error", body).build());
    }

    private void reply(JsonRpcMessage request, JsonRpcMessage answer) {
        send(answer, NOTIFICATION_TIMEOUT).whenComplete((v, error) -> {
            if (error != null) {
                LOG.log(Level.FINE, "could not answer server request " + request.method(), error);
            }
        });
    }

    private void dispatchNotification(JsonRpcMessage notification) {
        JsonObject params = notification.params();
        if ("notifications/progress".equals(notification.method())) {
            JsonValue token = params.get("progressToken");
            Pending call = token == null ? null : progressRoutes.get(tokenText(token));
            if (call != null) {
                // inline on the reader thread: keeps progress in order
                call.progress.accept(params);
            }
            return;
        }
        List<Consumer<JsonObject>> listeners = notificationListeners.get(notification.method());
        if (listeners != null) {
            for (Consumer<JsonObject> listener : listeners) {
                runOnExecutor(() -> listener.accept(params));
            }
        }
    }

    private CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout) {
        return send(message, timeout, null, false);
    }

    private CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout, CompletableFuture<?> answer,
                                         boolean callerWaits) {
        traffic.outbound(message.json());
        try {
            return answer == null ? transport.send(message, timeout) : transport.send(message, timeout, answer, callerWaits);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(asMcpException(e));
        }
    }

    private void sendCancelled(String method, JsonValue id, String reason) {
        // the protocol forbids cancelling initialize; a closed connection has nobody to tell
        if ("initialize".equals(method) || closed.get()) {
            return;
        }
        JsonObject params = JsonProviders.JSON.createObjectBuilder().add("requestId", id).add("reason", reason).build();
        send(JsonRpcMessage.notification("notifications/cancelled", params), NOTIFICATION_TIMEOUT)
                .whenComplete((v, error) -> {
                    if (error != null) {
                        LOG.log(Level.FINE, "could not send notifications/cancelled", error);
                    }
                });
    }

    private void failAllPending(McpException cause) {
        for (Pending call : List.copyOf(pending.values())) {
            call.future.completeExceptionally(new McpException(cause.kind(),
                    call.method + ": " + cause.getMessage(), cause));
        }
    }

    private void runOnExecutor(Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.WARNING, "executor rejected a listener callback", e);
        }
    }

    private static JsonObject withProgressToken(JsonObject params, String token) {
        JsonObject base = params == null ? JsonValue.EMPTY_JSON_OBJECT : params;
        JsonObjectBuilder meta = base.get("_meta") instanceof JsonObject existing
                ? JsonProviders.JSON.createObjectBuilder(existing)
                : JsonProviders.JSON.createObjectBuilder();
        meta.add("progressToken", token);
        return JsonProviders.JSON.createObjectBuilder(base).add("_meta", meta).build();
    }

    private static String tokenText(JsonValue token) {
        return token instanceof jakarta.json.JsonString s ? s.getString() : token.toString();
    }

    private static McpException timeout(String method, Duration timeout) {
        return new McpException(McpException.Kind.TIMEOUT, method + ": no answer within " + timeout.toMillis() + " ms");
    }

    /** Unwraps future plumbing; anything that is not already classified is a protocol-level failure. */
    public static McpException asMcpException(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof McpException mcp) {
            return mcp;
        }
        if (t instanceof CancellationException) {
            return new McpException(McpException.Kind.CANCELLED, "cancelled", t);
        }
        return new McpException(McpException.Kind.PROTOCOL, String.valueOf(t.getMessage()), t);
    }
}
