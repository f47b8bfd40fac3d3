package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.HeaderValue;
import dev.switchboard.mcp.ModernProtocol;
import jakarta.json.JsonString;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.platform.sse.SseEvent;
import dev.switchboard.platform.sse.SseReader;

import org.apache.hc.client5.http.classic.methods.HttpDelete;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * MCP Streamable HTTP (2025-03-26 and later): every message is a POST whose answer is JSON or an SSE
 * stream; the server's own messages arrive on an optional GET stream; {@code Mcp-Session-Id} ties it together.
 * A request whose caller waits for the answer is sent and its answer read on the caller's thread; other messages,
 * and the GET stream, run on the executor.
 * <p>
 * Streams are resumable (2025-11-25, "Resumability and Redelivery"): a server may end an SSE stream once an event
 * carried an id (SSE polling), and a connection may break on the way. The GET stream is then reopened, and a request's
 * answer stream that ended before its response is read on from a GET, both with {@code Last-Event-ID} after the
 * server's {@code retry} or a {@link ReconnectBackoff}. A stream stopped on purpose (close, cancellation, deadline, the
 * grace after the response) is never resumed.
 */
public final class StreamableHttpTransport implements McpTransport {

    private static final Logger LOG = Logger.getLogger(StreamableHttpTransport.class.getName());
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final String VERSION_HEADER = "MCP-Protocol-Version";
    private static final ContentType JSON = ContentType.create("application/json");
    private static final Duration DELETE_TIMEOUT = Duration.ofSeconds(2);
    /** Bounds the wait for the GET stream's headers; the stream itself stays open as long as the server likes. */
    private static final Duration SERVER_STREAM_OPEN_TIMEOUT = Duration.ofSeconds(30);
    /**
     * A request's deadline is the caller's (JsonRpcPeer stops the exchange when it passes); reads get a little longer,
     * so that it is the deadline, which also tells the backend to stop, that ends a slow answer.
     */
    private static final Duration READ_TIMEOUT_SLACK = Duration.ofSeconds(2);
    /** How long a POST's SSE stream may stay open after it carried the awaited response. */
    static final Duration AFTER_ANSWER_GRACE = Duration.ofMillis(200);

    private final URI endpoint;
    private final ExtraHeaders extraHeaders;
    private final BackendHttpClient http;
    private final Executor executor;
    private final ReconnectBackoff backoff;
    /** Exchanges in progress (POSTs and GET streams), cancelled on {@link #close()} to end their reads. */
    private final Set<HttpUriRequestBase> exchanges = ConcurrentHashMap.newKeySet();
    /** Completed by {@link #close()}: ends a wait before a stream is reopened. */
    private final CompletableFuture<Void> closing = new CompletableFuture<>();
    private volatile Listener listener;
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile boolean closed;
    /** Speaking 2026-07-28 ({@link #statelessEra}): no session, no GET stream, each request names itself in headers. */
    private volatile boolean stateless;

    public StreamableHttpTransport(URI endpoint, ExtraHeaders extraHeaders, BackendHttpClient http, Executor executor) {
        this(endpoint, extraHeaders, http, executor, ReconnectBackoff.DEFAULT);
    }

    StreamableHttpTransport(URI endpoint, ExtraHeaders extraHeaders, BackendHttpClient http, Executor executor,
                            ReconnectBackoff backoff) {
        this.endpoint = endpoint;
        this.extraHeaders = extraHeaders;
        this.http = http;
        this.executor = executor;
        this.backoff = backoff;
    }

    @Override
    public void start(Listener listener, Duration timeout) {
        // nothing to open: the initialize POST is the first contact, and its failure is classified there
        this.listener = listener;
    }

    @Override
    public CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout) {
        return send(message, timeout, null, false);
    }

    @Override
    public CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout, CompletableFuture<?> answer,
                                        boolean callerWaits) {
        if (closed) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.CLOSED, "session closed"));
        }
        String sentWithSession = sessionId;
        // built here: the headers of the caller's work (RequestHeaders) are bound to this thread
        HttpPost post = withSessionHeaders(new HttpPost(endpoint));
        if (stateless && message.kind() == JsonRpcMessage.Kind.REQUEST) {
            post.setHeader(ModernProtocol.METHOD_HEADER, message.method());
            String named = ModernProtocol.NAMED.get(message.method());
            if (named != null && message.params().get(named) instanceof JsonString name) {
                post.setHeader(ModernProtocol.NAME_HEADER, HeaderValue.encode(name.getString()));
            }
        }
        RequestHeaders.applyTo(post);
        post.setHeader("Accept", "application/json, text/event-stream");
        post.setEntity(new ByteArrayEntity(message.toJson().getBytes(StandardCharsets.UTF_8), JSON));
        Duration readTimeout = answer == null ? timeout : timeout.plus(READ_TIMEOUT_SLACK);
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        if (answer != null) {
            answer.whenComplete((result, error) -> {
                if (error != null) {
                    post.cancel();
                }
            });
        }
        if (callerWaits) {
            post(post, message, sentWithSession, timeout, readTimeout, answer, delivered);
            return delivered;
        }
        try {
            executor.execute(() -> post(post, message, sentWithSession, timeout, readTimeout, answer, delivered));
        } catch (RejectedExecutionException e) {
            delivered.completeExceptionally(new McpException(McpException.Kind.CLOSED, "no thread to send the message", e));
        }
        return delivered;
    }

    @Override
    public String sessionId() {
        return sessionId;
    }

    @Override
    public void initialized(String protocolVersion) {
        this.protocolVersion = protocolVersion;
        try {
            executor.execute(this::listenToServer);
        } catch (RejectedExecutionException e) {
            LOG.warning("no thread to read the GET stream of " + endpoint);
        }
    }

    /**
     * From now on speaks the stateless era to a backend that answered {@code server/discover} (MCP 2026-07-28):
     * every POST carries the version and mirrors its method (and name or URI) in {@code Mcp-Method} and
     * {@code Mcp-Name}; a refusal with a JSON-RPC body (400 for a header mismatch, an unsupported version or a missing
     * capability) is that request's error answer; there is no session to end and no GET stream to open.
     */
    public void statelessEra(String version) {
        this.protocolVersion = version;
        this.stateless = true;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closing.complete(null);
        if (sessionId != null) {
            // 405 means the server does not let clients end sessions; either way we are done
            HttpDelete delete = withSessionHeaders(new HttpDelete(endpoint));
            ScheduledFuture<?> bound = http.cancelAfter(delete, DELETE_TIMEOUT);
            try {
                HttpFailures.discard(http.execute(delete, DELETE_TIMEOUT, DELETE_TIMEOUT));
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, "DELETE of session at " + endpoint + " failed", e);
            } finally {
                bound.cancel(false);
            }
        }
        for (HttpUriRequestBase exchange : List.copyOf(exchanges)) {
            exchange.cancel();
        }
    }

    private <R extends HttpUriRequestBase> R withSessionHeaders(R request) {
        extraHeaders.applyTo(request);
        String session = sessionId;
        if (session != null) {
            request.setHeader(SESSION_HEADER, session);
        }
        String version = protocolVersion;
        if (version != null) {
            request.setHeader(VERSION_HEADER, version);
        }
        return request;
    }

    private void post(HttpPost post, JsonRpcMessage message, String sentWithSession, Duration timeout,
                      Duration readTimeout, CompletableFuture<?> answer, CompletableFuture<Void> delivered) {
        exchanges.add(post);
        try {
            handlePostResponse(message, sentWithSession, http.execute(post, timeout, readTimeout), post, answer,
                    readTimeout, delivered);
        } catch (IOException | RuntimeException e) {
            McpException failure = HttpFailures.classify(e, endpoint);
            if (failure.kind() == McpException.Kind.CONNECT_REFUSED && sentWithSession != null) {
                // the server went away after the handshake: the session is gone with it
                lost(failure);
            }
            delivered.completeExceptionally(failure);
        } finally {
            // a body read to its end has already given the connection back to the pool; any other is dropped here,
            // not drained (closing the response would read on until the stream ends)
            post.cancel();
            exchanges.remove(post);
        }
    }

    private void handlePostResponse(JsonRpcMessage message, String sentWithSession, ClassicHttpResponse response,
                                    HttpPost post, CompletableFuture<?> answer, Duration readTimeout,
                                    CompletableFuture<Void> delivered) {
        Header session = response.getFirstHeader(SESSION_HEADER);
        if (session != null) {
            sessionId = session.getValue();
        }
        int status = response.getCode();
        if (status == 404 && sentWithSession != null) {
            sessionExpired(response, delivered);
            return;
        }
        if (stateless && status >= 400 && status < 500 && contentType(response).startsWith("application/json")) {
            try {
                readJsonBody(response.getEntity().getContent(), delivered);
            } catch (IOException e) {
                delivered.completeExceptionally(HttpFailures.classify(e, endpoint));
            }
            return;
        }
        if (status < 200 || status >= 300) {
            delivered.completeExceptionally(HttpFailures.status(response, "POST", endpoint));
            return;
        }
        HttpEntity entity = response.getEntity();
        String contentType = contentType(response);
        boolean isRequest = message.kind() == JsonRpcMessage.Kind.REQUEST;
        try {
            if (contentType.startsWith("text/event-stream")) {
                readEventStream(entity.getContent(), isRequest ? message.idKey() : null, post, answer, readTimeout, delivered);
            } else if (contentType.startsWith("application/json")) {
                readJsonBody(entity.getContent(), delivered);
            } else {
                HttpFailures.discard(response);
                if (isRequest && status != 202) {
                    delivered.completeExceptionally(new McpException(McpException.Kind.PROTOCOL,
                            "unexpected Content-Type '" + contentType + "' from " + endpoint));
                } else {
                    delivered.complete(null);
                }
            }
        } catch (IOException e) {
            delivered.completeExceptionally(HttpFailures.classify(e, endpoint));
        } catch (RuntimeException e) {
            delivered.completeExceptionally(e);
        }
    }

    private void readJsonBody(InputStream body, CompletableFuture<Void> delivered) {
        try (InputStream in = body) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (JsonRpcMessage answer : JsonRpcMessage.parseAll(text)) {
                listener.onMessage(answer);
            }
            delivered.complete(null);
        } catch (McpException e) {
            delivered.completeExceptionally(e);
        } catch (IOException e) {
            delivered.completeExceptionally(HttpFailures.classify(e, endpoint));
        }
    }

    /**
     * Reads a POST's SSE answer to its end; for a request the stream must carry its response before it ends. One that
     * ended or broke first is resumed when an event carried an id; a stream stopped on purpose (deadline, cancellation,
     * close) fails only this message; one that broke and cannot be resumed means the backend is gone.
     */
    private void readEventStream(InputStream body, String awaitedIdKey, HttpPost post, CompletableFuture<?> answer,
                                 Duration readTimeout, CompletableFuture<Void> delivered) {
        SseReader events = new SseReader(body);
        McpException cut;
        boolean broke = false;
        try {
            if (readUntilAnswered(events, awaitedIdKey, post)) {
                delivered.complete(null);
                return;
            }
            cut = new McpException(McpException.Kind.CLOSED, "response stream from " + endpoint + " ended before the response");
        } catch (IOException e) {
            cut = HttpFailures.classify(e, endpoint);
            if (cut.kind() != McpException.Kind.CLOSED) {
                delivered.completeExceptionally(cut);
                return;
            }
            cut = new McpException(McpException.Kind.CLOSED, "response stream from " + endpoint + " broke: " + e.getMessage(), e);
            broke = true;
        } finally {
            closeQuietly(events);
        }
        if (stoppedOnPurpose(post, answer)) {
            delivered.completeExceptionally(stopped(cut));
        } else if (answer != null && events.lastEventId() != null) {
            resumeAnswer(awaitedIdKey, post, events, answer, readTimeout, cut, broke, delivered);
        } else {
            fail(cut, broke, delivered);
        }
    }

    /**
     * Delivers the messages of a request's answer stream as they come, as belonging to that request; true once the
     * stream carried the awaited response (for a notification's POST: once it ended). A server should end the stream
     * then; one that keeps it open would hold the reading thread, often the caller's own, so the exchange is stopped
     * after a short grace instead.
     */
    private boolean readUntilAnswered(SseReader events, String awaitedIdKey, HttpUriRequestBase exchange) throws IOException {
        boolean answered = awaitedIdKey == null;
        ScheduledFuture<?> afterAnswer = null;
        try {
            SseEvent event;
            while ((event = events.next()) != null) {
                JsonRpcMessage received = parseEvent(event);
                if (received != null) {
                    boolean answer = awaitedIdKey != null && received.kind() == JsonRpcMessage.Kind.RESPONSE
                            && awaitedIdKey.equals(received.idKey());
                    answered |= answer;
                    listener.onMessage(received, awaitedIdKey);
                    if (answer && afterAnswer == null) {
                        afterAnswer = http.cancelAfter(exchange, AFTER_ANSWER_GRACE);
                    }
                }
            }
            return answered;
        } catch (IOException e) {
            if (afterAnswer != null) {
                // stopped after its answer (the grace above) or broken after it: the request got what it asked for
                return true;
            }
            throw e;
        } finally {
            if (afterAnswer != null) {
                afterAnswer.cancel(false);
            }
        }
    }

    /**
     * Reads on a request's answer stream that ended or broke before the response, from GET streams with
     * {@code Last-Event-ID}: what they carry is delivered as if it came on the POST, until the response is there, the
     * request ends (deadline, cancellation, close) or the stream cannot be resumed (405, 404, the server gone, the
     * backoff's attempts spent). A resumed stream that ends early too is resumed again from where it got to.
     *
     * @param post the request's POST, whose headers the GETs carry too (the caller's {@code traceparent})
     * @param position the POST's stream, which gave the event id to resume after
     */
    private void resumeAnswer(String awaitedIdKey, HttpPost post, SseReader position, CompletableFuture<?> answer, Duration readTimeout,
                              McpException cut, boolean broke, CompletableFuture<Void> delivered) {
        CompletableFuture<Object> requestEnded = CompletableFuture.anyOf(answer, closing);
        int failedAttempts = 0;
        while (!backoff.exhausted(failedAttempts)) {
            if (!pause(backoff.delayMillis(failedAttempts, position.retryMillis()), requestEnded)) {
                delivered.completeExceptionally(stopped(cut));
                return;
            }
            HttpGet get = eventStreamRequest(position, post);
            if (!track(get)) {
                delivered.completeExceptionally(cut);
                return;
            }
            answer.whenComplete((result, error) -> {
                if (error != null) {
                    get.cancel();
                }
            });
            SseReader events = null;
            try {
                ClassicHttpResponse response = http.execute(get, readTimeout, readTimeout);
                int status = response.getCode();
                if (status == 404 && sessionId != null) {
                    sessionExpired(response, delivered);
                    return;
                }
                if (status == 404 || status == 405) {
                    HttpFailures.discard(response);
                    fail(notResumed(cut, "the server offers no GET stream (HTTP " + status + ")"), broke, delivered);
                    return;
                }
                if (!isEventStream(response)) {
                    LOG.fine(() -> "resuming the answer stream at " + endpoint + " got HTTP " + status);
                    HttpFailures.discard(response);
                    failedAttempts++;
                    continue;
                }
                failedAttempts = 0;
                events = new SseReader(response.getEntity().getContent(), position);
                position = events;
                if (readUntilAnswered(events, awaitedIdKey, get)) {
                    delivered.complete(null);
                    return;
                }
            } catch (IOException | RuntimeException e) {
                if (stoppedOnPurpose(get, answer)) {
                    delivered.completeExceptionally(stopped(cut));
                    return;
                }
                McpException failure = HttpFailures.classify(e, endpoint);
                if (failure.kind() == McpException.Kind.CONNECT_REFUSED) {
                    // the server is gone, and its session with it
                    fail(notResumed(cut, failure.getMessage()), true, delivered);
                    return;
                }
                if (events == null) {
                    failedAttempts++;
                }
            } finally {
                closeQuietly(events);
                get.cancel();
                exchanges.remove(get);
            }
        }
        fail(notResumed(cut, "no stream in " + backoff.attempts() + " attempts"), broke, delivered);
    }

    /**
     * The GET stream the server may use for its own requests and notifications, read on an executor thread for as long
     * as the session lasts; only its headers must come within {@link #SERVER_STREAM_OPEN_TIMEOUT}. When the server ends
     * it or it breaks, it is reopened with the last event id seen; 405 means the server offers no stream, 404 that the
     * session is gone. If the first GET fails the server has no stream for us; once one was open, reopenings that fail
     * {@link ReconnectBackoff#attempts()} times in a row, or find the server gone, mean the session is lost.
     */
    private void listenToServer() {
        SseReader position = null;
        int failedAttempts = 0;
        McpException broke = null;
        while (true) {
            HttpGet get = eventStreamRequest(position);
            if (!track(get)) {
                return;
            }
            ScheduledFuture<?> headersDeadline = http.cancelAfter(get, SERVER_STREAM_OPEN_TIMEOUT);
            SseReader events = null;
            try {
                ClassicHttpResponse response = http.execute(get, SERVER_STREAM_OPEN_TIMEOUT, null);
                headersDeadline.cancel(false);
                int status = response.getCode();
                if (status == 404 && sessionId != null) {
                    HttpFailures.discard(response);
                    lost(sessionExpired());
                    return;
                }
                if (!isEventStream(response)) {
                    HttpFailures.discard(response);
                    LOG.fine(() -> "GET stream at " + endpoint + " answered " + status);
                    if (status == 405 || position == null) {
                        // the server has no stream for us, which the protocol allows
                        return;
                    }
                    failedAttempts++;
                } else {
                    failedAttempts = 0;
                    broke = null;
                    events = new SseReader(response.getEntity().getContent(), position);
                    position = events;
                    readServerEvents(events);
                    LOG.fine(() -> "server closed the GET stream of " + endpoint);
                }
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    return;
                }
                if (position == null) {
                    LOG.log(Level.FINE, "GET stream at " + endpoint + " not opened", e);
                    return;
                }
                McpException failure = HttpFailures.classify(e, endpoint);
                if (failure.kind() == McpException.Kind.CONNECT_REFUSED) {
                    // the server is gone, and its session with it
                    lost(new McpException(McpException.Kind.CLOSED, "GET stream at " + endpoint + " not reopened: "
                            + failure.getMessage(), e));
                    return;
                }
                if (events == null) {
                    failedAttempts++;
                } else {
                    broke = new McpException(McpException.Kind.CLOSED, "stream from " + endpoint + " broke: " + e.getMessage(), e);
                }
            } finally {
                headersDeadline.cancel(false);
                closeQuietly(events);
                get.cancel();
                exchanges.remove(get);
            }
            if (backoff.exhausted(failedAttempts)) {
                lost(broke != null ? broke : new McpException(McpException.Kind.CLOSED,
                        "GET stream at " + endpoint + " not reopened in " + backoff.attempts() + " attempts"));
                return;
            }
            if (!pause(backoff.delayMillis(failedAttempts, position.retryMillis()), closing)) {
                return;
            }
        }
    }

    private void readServerEvents(SseReader events) throws IOException {
        SseEvent event;
        while ((event = events.next()) != null) {
            JsonRpcMessage received = parseEvent(event);
            if (received != null) {
                listener.onMessage(received);
            }
        }
    }

    /** A GET for an SSE stream, resuming after the last event id {@code position} saw when there is one. */
    private HttpGet eventStreamRequest(SseReader position) {
        HttpGet get = withSessionHeaders(new HttpGet(endpoint));
        get.setHeader("Accept", "text/event-stream");
        if (position != null && position.lastEventId() != null) {
            get.setHeader("Last-Event-ID", position.lastEventId());
        }
        return get;
    }

    /**
     * A GET that reads on a request's answer stream, with the headers of the request's POST that it does not set
     * itself: those of the caller's work ({@link RequestHeaders}, the trace), which the resuming thread may not have.
     */
    private HttpGet eventStreamRequest(SseReader position, HttpPost post) {
        HttpGet get = eventStreamRequest(position);
        for (Header header : post.getHeaders()) {
            if (!get.containsHeader(header.getName())) {
                get.setHeader(header);
            }
        }
        return get;
    }

    /** Registers an exchange for {@link #close()} to stop; false when the transport is already closed. */
    private boolean track(HttpUriRequestBase exchange) {
        exchanges.add(exchange);
        if (closed) {
            // close() may have looked at the exchanges before this one was added
            exchanges.remove(exchange);
            return false;
        }
        return true;
    }

    private boolean stoppedOnPurpose(HttpUriRequestBase exchange, CompletableFuture<?> answer) {
        return closed || exchange.isCancelled() || answer != null && answer.isDone() || Thread.currentThread().isInterrupted();
    }

    /** What a request stopped on purpose fails with: cancelled if its caller was interrupted, else why its stream ended. */
    private McpException stopped(McpException cut) {
        return Thread.currentThread().isInterrupted()
                ? new McpException(McpException.Kind.CANCELLED, "exchange with " + endpoint + " cancelled: caller interrupted")
                : cut;
    }

    private void fail(McpException failure, boolean broke, CompletableFuture<Void> delivered) {
        if (broke) {
            lost(failure);
        }
        delivered.completeExceptionally(failure);
    }

    private void sessionExpired(ClassicHttpResponse response, CompletableFuture<Void> delivered) {
        HttpFailures.discard(response);
        McpException expired = sessionExpired();
        lost(expired);
        delivered.completeExceptionally(expired);
    }

    private McpException sessionExpired() {
        return new McpException(McpException.Kind.CLOSED, "session expired at " + endpoint + " (HTTP 404)");
    }

    private static McpException notResumed(McpException cut, String why) {
        return new McpException(cut.kind(), cut.getMessage() + "; not resumed: " + why, cut.getCause());
    }

    /** Waits before a stream is reopened; false when {@code stop} completed first or the thread was interrupted. */
    private static boolean pause(long millis, CompletableFuture<?> stop) {
        try {
            stop.get(millis, TimeUnit.MILLISECONDS);
            return false;
        } catch (TimeoutException e) {
            return true;
        } catch (ExecutionException | CancellationException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String contentType(ClassicHttpResponse response) {
        HttpEntity entity = response.getEntity();
        return entity == null || entity.getContentType() == null ? "" : entity.getContentType().toLowerCase(Locale.ROOT);
    }

    private static boolean isEventStream(ClassicHttpResponse response) {
        return response.getCode() == 200 && contentType(response).startsWith("text/event-stream");
    }

    private static void closeQuietly(SseReader events) {
        if (events == null) {
            return;
        }
        try {
            events.close();
        } catch (IOException e) {
            // the stream is done with either way; a broken connection is not pooled again
        }
    }

    private JsonRpcMessage parseEvent(SseEvent event) {
        if (!"message".equals(event.event()) || event.data().isBlank()) {
            return null;
        }
        try {
            return JsonRpcMessage.parseFromPeer(event.data());
        } catch (McpException e) {
            LOG.warning(() -> "ignoring SSE event that is not JSON-RPC from " + endpoint + ": " + e.getMessage());
            return null;
        }
    }

    private void lost(McpException cause) {
        Listener l = listener;
        if (l != null) {
            l.onClosed(cause);
        }
    }
}
