package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.platform.sse.SseEvent;
import dev.switchboard.platform.sse.SseReader;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * The 2024-11-05 HTTP+SSE transport: one long GET stream carries everything the server sends; its first
 * {@code endpoint} event names the URL we POST our messages to. Not a hot path: POSTs run on the executor.
 */
public final class LegacySseTransport implements McpTransport {

    private static final Logger LOG = Logger.getLogger(LegacySseTransport.class.getName());

    private final URI sseUrl;
    private final ExtraHeaders extraHeaders;
    private final BackendHttpClient http;
    private final Executor executor;
    private final CompletableFuture<URI> endpoint = new CompletableFuture<>();
    private final HttpGet stream;
    private volatile boolean closed;

    public LegacySseTransport(URI sseUrl, ExtraHeaders extraHeaders, BackendHttpClient http, Executor executor) {
        this.sseUrl = sseUrl;
        this.extraHeaders = extraHeaders;
        this.http = http;
        this.executor = executor;
        this.stream = new HttpGet(sseUrl);
    }

    @Override
    public void start(Listener listener, Duration timeout) throws McpException {
        long deadline = System.nanoTime() + timeout.toNanos();
        extraHeaders.applyTo(stream);
        stream.setHeader("Accept", "text/event-stream");
        // the headers and the endpoint event must come in time; the stream then has no read timeout
        ScheduledFuture<?> bound = http.cancelAfter(stream, timeout);
        try {
            ClassicHttpResponse response;
            try {
                response = http.execute(stream, timeout, null);
            } catch (IOException | RuntimeException e) {
                throw stream.isCancelled() ? noneInTime("SSE stream") : HttpFailures.classify(e, sseUrl);
            }
            if (response.getCode() != 200 || response.getEntity() == null) {
                throw HttpFailures.status(response, "GET", sseUrl);
            }
            InputStream body = response.getEntity().getContent();
            executor.execute(() -> readStream(listener, body));
            await(endpoint, deadline, "endpoint event");
            if (!bound.cancel(false)) {
                throw noneInTime("endpoint event");
            }
        } catch (IOException | RejectedExecutionException e) {
            close();
            throw new McpException(McpException.Kind.CONNECT_REFUSED, "cannot read the SSE stream of " + sseUrl + ": " + e, e);
        } catch (McpException e) {
            close();
            throw e;
        } finally {
            bound.cancel(false);
        }
    }

    @Override
    public CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout) {
        URI target = endpoint.getNow(null);
        if (closed || target == null) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.CLOSED, "SSE session is not open"));
        }
        // built here: the headers of the caller's work (RequestHeaders) are bound to this thread
        HttpPost post = new HttpPost(target);
        extraHeaders.applyTo(post);
        RequestHeaders.applyTo(post);
        post.setEntity(new ByteArrayEntity(message.toJson().getBytes(StandardCharsets.UTF_8), ContentType.create("application/json")));
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        try {
            executor.execute(() -> post(post, target, timeout, delivered));
        } catch (RejectedExecutionException e) {
            delivered.completeExceptionally(new McpException(McpException.Kind.CLOSED, "no thread to send the message", e));
        }
        return delivered;
    }

    private void post(HttpPost post, URI target, Duration timeout, CompletableFuture<Void> delivered) {
        try {
            ClassicHttpResponse response = http.execute(post, timeout, timeout);
            if (response.getCode() < 200 || response.getCode() >= 300) {
                delivered.completeExceptionally(HttpFailures.status(response, "POST", target));
                return;
            }
            // the answer comes on the SSE stream; the POST body is just an acknowledgement
            HttpFailures.discard(response);
            delivered.complete(null);
        } catch (IOException | RuntimeException e) {
            delivered.completeExceptionally(HttpFailures.classify(e, target));
        } finally {
            post.cancel();
        }
    }

    @Override
    public void close() {
        closed = true;
        endpoint.completeExceptionally(new McpException(McpException.Kind.CLOSED, "closed by client"));
        stream.cancel();
    }

    private void readStream(Listener listener, InputStream body) {
        String reason = "SSE stream from " + sseUrl + " ended";
        try (SseReader events = new SseReader(body)) {
            SseEvent event;
            while ((event = events.next()) != null) {
                if ("endpoint".equals(event.event())) {
                    acceptEndpoint(event.data().strip());
                } else if ("message".equals(event.event())) {
                    deliver(listener, event.data());
                }
            }
        } catch (IOException e) {
            reason = "SSE stream from " + sseUrl + " broke: " + e.getMessage();
        }
        McpException cause = new McpException(McpException.Kind.CLOSED, reason);
        endpoint.completeExceptionally(cause);
        if (!closed) {
            listener.onClosed(cause);
        }
    }

    private void acceptEndpoint(String relative) {
        URI resolved = sseUrl.resolve(relative);
        // our configured headers may carry the backend's secrets: never POST them to another origin
        if (!Objects.equals(resolved.getScheme(), sseUrl.getScheme()) || !Objects.equals(resolved.getHost(), sseUrl.getHost())
                || resolved.getPort() != sseUrl.getPort()) {
            endpoint.completeExceptionally(new McpException(McpException.Kind.PROTOCOL,
                    "endpoint " + resolved + " is not on the same origin as " + sseUrl));
            return;
        }
        endpoint.complete(resolved);
    }

    private void deliver(Listener listener, String data) {
        try {
            listener.onMessage(JsonRpcMessage.parseFromPeer(data));
        } catch (McpException e) {
            LOG.warning(() -> "ignoring SSE message that is not JSON-RPC from " + sseUrl + ": " + e.getMessage());
        }
    }

    private void await(CompletableFuture<?> future, long deadlineNanos, String what) throws McpException {
        try {
            future.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new McpException(McpException.Kind.CANCELLED, "interrupted waiting for the " + what + " of " + sseUrl);
        } catch (ExecutionException e) {
            throw stream.isCancelled() && !closed ? noneInTime(what) : HttpFailures.classify(e.getCause(), sseUrl);
        } catch (TimeoutException e) {
            throw noneInTime(what);
        }
    }

    private McpException noneInTime(String what) {
        return new McpException(McpException.Kind.TIMEOUT, "no " + what + " from " + sseUrl + " in time");
    }
}
