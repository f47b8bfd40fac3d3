package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * MCP Streamable HTTP (2025-03-26 and later): every message is a POST whose answer is JSON or an SSE
 * stream; the server's own messages arrive on an optional GET stream; {@code Mcp-Session-Id} ties it together.
 * A request whose caller waits for the answer is sent and its answer read on the caller's thread; other messages,
 * and the GET stream, run on the executor.
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
    /** Exchanges in progress (POSTs and the GET stream), cancelled on {@link #close()} to end their reads. */
    private final Set<HttpUriRequestBase> exchanges = ConcurrentHashMap.newKeySet();
    private volatile Listener listener;
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile boolean closed;

    public StreamableHttpTransport(URI endpoint, ExtraHeaders extraHeaders, BackendHttpClient http, Executor executor) {
        this.endpoint = endpoint;
        this.extraHeaders = extraHeaders;
        this.http = http;
        this.executor = executor;
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
            post(post, message, sentWithSession, timeout, readTimeout, delivered);
            return delivered;
        }
        try {
            executor.execute(() -> post(post, message, sentWithSession, timeout, readTimeout, delivered));
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
            executor.execute(this::readServerStream);
        } catch (RejectedExecutionException e) {
            LOG.warning("no thread to read the GET stream of " + endpoint);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
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
                      Duration readTimeout, CompletableFuture<Void> delivered) {
        exchanges.add(post);
        try {
            handlePostResponse(message, sentWithSession, http.execute(post, timeout, readTimeout), post, delivered);
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
                                    HttpPost post, CompletableFuture<Void> delivered) {
        Header session = response.getFirstHeader(SESSION_HEADER);
        if (session != null) {
            sessionId = session.getValue();
        }
        int status = response.getCode();
        if (status == 404 && sentWithSession != null) {
            HttpFailures.discard(response);
            McpException expired = new McpException(McpException.Kind.CLOSED, "session expired at " + endpoint + " (HTTP 404)");
            lost(expired);
            delivered.completeExceptionally(expired);
            return;
        }
        if (status < 200 || status >= 300) {
            delivered.completeExceptionally(HttpFailures.status(response, "POST", endpoint));
            return;
        }
        HttpEntity entity = response.getEntity();
        String contentType = entity == null || entity.getContentType() == null ? "" : entity.getContentType().toLowerCase(Locale.ROOT);
        boolean isRequest = message.kind() == JsonRpcMessage.Kind.REQUEST;
        try {
            if (contentType.startsWith("text/event-stream")) {
                readEventStream(entity.getContent(), isRequest ? message.idKey() : null, post, delivered);
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
     * Reads a POST's SSE answer to its end; for a request the stream must carry its response before it ends. A
     * stream stopped on purpose (deadline, cancellation, close) fails only this message; one that broke means the
     * backend is gone.
     */
    private void readEventStream(InputStream body, String awaitedIdKey, HttpPost post, CompletableFuture<Void> delivered) {
        boolean answered = awaitedIdKey == null;
        ScheduledFuture<?> afterAnswer = null;
        try (SseReader events = new SseReader(body)) {
            SseEvent event;
            while ((event = events.next()) != null) {
                JsonRpcMessage received = parseEvent(event);
                if (received != null) {
                    boolean answer = awaitedIdKey != null && received.kind() == JsonRpcMessage.Kind.RESPONSE
                            && awaitedIdKey.equals(received.idKey());
                    answered |= answer;
                    listener.onMessage(received, awaitedIdKey);
                    if (answer && afterAnswer == null) {
                        // the server should end the stream now; one that keeps it open would hold the reading thread,
                        // often the caller's own, so the exchange is stopped after a short grace instead
                        afterAnswer = http.cancelAfter(post, AFTER_ANSWER_GRACE);
                    }
                }
            }
            if (answered) {
                delivered.complete(null);
            } else {
                delivered.completeExceptionally(new McpException(McpException.Kind.CLOSED,
                        "response stream from " + endpoint + " ended before the response"));
            }
        } catch (IOException e) {
            if (afterAnswer != null) {
                // stopped after its answer (the grace above) or broken after it: the request got what it asked for
                delivered.complete(null);
                return;
            }
            McpException failure = HttpFailures.classify(e, endpoint);
            if (failure.kind() == McpException.Kind.CLOSED) {
                failure = new McpException(McpException.Kind.CLOSED, "response stream from " + endpoint + " broke: " + e.getMessage(), e);
                if (!closed && !post.isCancelled()) {
                    lost(failure);
                }
            }
            delivered.completeExceptionally(failure);
        } finally {
            if (afterAnswer != null) {
                afterAnswer.cancel(false);
            }
        }
    }

    /**
     * The GET stream the server may use for its own requests and notifications, read on an executor thread for as
     * long as it lasts (no read timeout); only its headers must come within {@link #SERVER_STREAM_OPEN_TIMEOUT}.
     */
    private void readServerStream() {
        HttpGet get = withSessionHeaders(new HttpGet(endpoint));
        get.setHeader("Accept", "text/event-stream");
        exchanges.add(get);
        ScheduledFuture<?> headersDeadline = http.cancelAfter(get, SERVER_STREAM_OPEN_TIMEOUT);
        try {
            ClassicHttpResponse response = http.execute(get, SERVER_STREAM_OPEN_TIMEOUT, null);
            if (!headersDeadline.cancel(false)) {
                LOG.fine(() -> "GET stream at " + endpoint + " not opened in time");
                return;
            }
            if (response.getCode() != 200 || response.getEntity() == null) {
                // 405: the server has no stream for us, which the protocol allows
                HttpFailures.discard(response);
                LOG.fine(() -> "GET stream at " + endpoint + " answered " + response.getCode());
                return;
            }
            readServerEvents(response.getEntity().getContent(), get);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "GET stream at " + endpoint + " not opened", e);
        } finally {
            headersDeadline.cancel(false);
            get.cancel();
            exchanges.remove(get);
        }
    }

    private void readServerEvents(InputStream body, HttpGet get) {
        try (SseReader events = new SseReader(body)) {
            SseEvent event;
            while ((event = events.next()) != null) {
                JsonRpcMessage received = parseEvent(event);
                if (received != null) {
                    listener.onMessage(received);
                }
            }
            LOG.fine(() -> "server closed the GET stream of " + endpoint);
        } catch (IOException e) {
            if (!closed && !get.isCancelled()) {
                lost(new McpException(McpException.Kind.CLOSED, "stream from " + endpoint + " broke: " + e.getMessage(), e));
            }
        }
    }

    private JsonRpcMessage parseEvent(SseEvent event) {
        if (!"message".equals(event.event()) || event.data().isBlank()) {
            return null;
        }
        try {
            return JsonRpcMessage.parse(event.data());
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
