package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The 2024-11-05 HTTP+SSE transport: one long GET stream carries everything the server sends; its first
 * {@code endpoint} event names the URL we POST our messages to.
 */
public final class LegacySseTransport implements McpTransport {

    private static final Logger LOG = Logger.getLogger(LegacySseTransport.class.getName());

    private final URI sseUrl;
    private final ExtraHeaders extraHeaders;
    private final HttpClient http;
    private final Executor executor;
    private final CompletableFuture<URI> endpoint = new CompletableFuture<>();
    private volatile InputStream stream;
    private volatile boolean closed;

    public LegacySseTransport(URI sseUrl, ExtraHeaders extraHeaders, HttpClient http, Executor executor) {
        this.sseUrl = sseUrl;
        this.extraHeaders = extraHeaders;
        this.http = http;
        this.executor = executor;
    }

    @Override
    public void start(Listener listener, Duration timeout) throws McpException {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest request = extraHeaders.applyTo(HttpRequest.newBuilder(sseUrl))
                .timeout(timeout).header("Accept", "text/event-stream").GET().build();
        HttpResponse<InputStream> response = await(http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()), deadline, "SSE stream");
        if (response.statusCode() != 200) {
            throw HttpFailures.status(response);
        }
        stream = response.body();
        try {
            executor.execute(() -> readStream(listener));
        } catch (RejectedExecutionException e) {
            close();
            throw new McpException(McpException.Kind.CONNECT_REFUSED, "no thread available to read " + sseUrl, e);
        }
        await(endpoint, deadline, "endpoint event");
    }

    @Override
    public CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout) {
        URI target = endpoint.getNow(null);
        if (closed || target == null) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.CLOSED, "SSE session is not open"));
        }
        HttpRequest request = RequestHeaders.applyTo(extraHeaders.applyTo(HttpRequest.newBuilder(target))).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(message.toJson(), StandardCharsets.UTF_8))
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                .handle((response, error) -> {
                    if (error != null) {
                        throw new CompletionException(HttpFailures.classify(error, target));
                    }
                    if (response.statusCode() < 200 || response.statusCode() >= 300) {
                        throw new CompletionException(HttpFailures.status(response));
                    }
                    // the answer comes on the SSE stream; the POST body is just an acknowledgement
                    HttpFailures.discard(response);
                    return null;
                });
    }

    @Override
    public void close() {
        closed = true;
        endpoint.completeExceptionally(new McpException(McpException.Kind.CLOSED, "closed by client"));
        InputStream s = stream;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                LOG.log(Level.FINE, "closing SSE stream of " + sseUrl, e);
            }
        }
    }

    private void readStream(Listener listener) {
        String reason = "SSE stream from " + sseUrl + " ended";
        try (SseReader events = new SseReader(stream)) {
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
            listener.onMessage(JsonRpcMessage.parse(data));
        } catch (McpException e) {
            LOG.warning(() -> "ignoring SSE message that is not JSON-RPC from " + sseUrl + ": " + e.getMessage());
        }
    }

    private <T> T await(CompletableFuture<T> future, long deadlineNanos, String what) throws McpException {
        try {
            return future.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new McpException(McpException.Kind.CANCELLED, "interrupted waiting for the " + what + " of " + sseUrl);
        } catch (ExecutionException e) {
            close();
            throw HttpFailures.classify(e.getCause(), sseUrl);
        } catch (TimeoutException e) {
            close();
            throw new McpException(McpException.Kind.TIMEOUT, "no " + what + " from " + sseUrl + " in time");
        }
    }
}
