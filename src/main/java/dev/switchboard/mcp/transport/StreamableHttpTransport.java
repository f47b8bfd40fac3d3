package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * MCP Streamable HTTP (2025-03-26 and later): every message is a POST whose answer is JSON or an SSE
 * stream; the server's own messages arrive on an optional GET stream; {@code Mcp-Session-Id} ties it together.
 */
public final class StreamableHttpTransport implements McpTransport {

    private static final Logger LOG = Logger.getLogger(StreamableHttpTransport.class.getName());
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final String VERSION_HEADER = "MCP-Protocol-Version";
    private static final Duration DELETE_TIMEOUT = Duration.ofSeconds(2);
    /** Bounds the wait for the GET stream's headers; the stream itself stays open as long as the server likes. */
    private static final Duration SERVER_STREAM_OPEN_TIMEOUT = Duration.ofSeconds(30);

    private final URI endpoint;
    private final ExtraHeaders extraHeaders;
    private final HttpClient http;
    private final Executor executor;
    /** Response bodies still being read, closed on {@link #close()} to stop their reader threads. */
    private final Set<Closeable> openStreams = ConcurrentHashMap.newKeySet();
    private volatile Listener listener;
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile boolean closed;

    public StreamableHttpTransport(URI endpoint, ExtraHeaders extraHeaders, HttpClient http, Executor executor) {
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
        if (closed) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.CLOSED, "session closed"));
        }
        String sentWithSession = sessionId;
        HttpRequest request = RequestHeaders.applyTo(baseRequest(timeout))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(message.toJson(), StandardCharsets.UTF_8))
                .build();
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        try {
            executor.execute(() -> post(request, message, sentWithSession, delivered));
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
        openServerStream();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        String session = sessionId;
        if (session != null) {
            HttpRequest delete = baseRequest(DELETE_TIMEOUT).DELETE().build();
            try {
                // 405 means the server does not let clients end sessions; either way we are done
                http.sendAsync(delete, HttpResponse.BodyHandlers.discarding())
                        .get(DELETE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.log(Level.FINE, "DELETE of session at " + endpoint + " failed", e);
            }
        }
        for (Closeable stream : List.copyOf(openStreams)) {
            closeQuietly(stream);
        }
    }

    private HttpRequest.Builder baseRequest(Duration timeout) {
        HttpRequest.Builder builder = extraHeaders.applyTo(HttpRequest.newBuilder(endpoint)).timeout(timeout);
        String session = sessionId;
        if (session != null) {
            builder.header(SESSION_HEADER, session);
        }
        String version = protocolVersion;
        if (version != null) {
            builder.header(VERSION_HEADER, version);
        }
        return builder;
    }

    /**
     * A blocking {@code send} on a thread of our own pool, which then reads the answer. Not {@code sendAsync}: that
     * completes every exchange on {@code CompletableFuture}'s default executor, which on a machine with 2 cores or
     * fewer starts a new thread per task (bench/README.md, findings), i.e. a thread per backend call.
     */
    private void post(HttpRequest request, JsonRpcMessage message, String sentWithSession, CompletableFuture<Void> delivered) {
        HttpResponse<InputStream> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException | RuntimeException e) {
            McpException failure = HttpFailures.classify(e, endpoint);
            if (failure.kind() == McpException.Kind.CONNECT_REFUSED && sentWithSession != null) {
                // the server went away after the handshake: the session is gone with it
                lost(failure);
            }
            delivered.completeExceptionally(failure);
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            delivered.completeExceptionally(new McpException(McpException.Kind.CLOSED, "interrupted while sending to " + endpoint, e));
            return;
        }
        handlePostResponse(message, sentWithSession, response, delivered);
    }

    private void handlePostResponse(JsonRpcMessage message, String sentWithSession,
                                    HttpResponse<InputStream> response, CompletableFuture<Void> delivered) {
        response.headers().firstValue(SESSION_HEADER).ifPresent(id -> sessionId = id);
        int status = response.statusCode();
        if (status == 404 && sentWithSession != null) {
            HttpFailures.discard(response);
            McpException expired = new McpException(McpException.Kind.CLOSED, "session expired at " + endpoint + " (HTTP 404)");
            lost(expired);
            delivered.completeExceptionally(expired);
            return;
        }
        if (status < 200 || status >= 300) {
            delivered.completeExceptionally(HttpFailures.status(response));
            return;
        }
        String contentType = response.headers().firstValue("Content-Type").orElse("").toLowerCase();
        boolean isRequest = message.kind() == JsonRpcMessage.Kind.REQUEST;
        try {
            if (contentType.startsWith("text/event-stream")) {
                readEventStream(response.body(), isRequest ? message.idKey() : null, delivered);
            } else if (contentType.startsWith("application/json")) {
                readJsonBody(response.body(), delivered);
            } else {
                HttpFailures.discard(response);
                if (isRequest && status != 202) {
                    delivered.completeExceptionally(new McpException(McpException.Kind.PROTOCOL,
                            "unexpected Content-Type '" + contentType + "' from " + endpoint));
                } else {
                    delivered.complete(null);
                }
            }
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

    /** Reads a POST's SSE answer; for a request the stream must carry its response before it ends. */
    private void readEventStream(InputStream body, String awaitedIdKey, CompletableFuture<Void> delivered) {
        boolean answered = awaitedIdKey == null;
        openStreams.add(body);
        try (SseReader events = new SseReader(body)) {
            SseEvent event;
            while ((event = events.next()) != null) {
                JsonRpcMessage received = parseEvent(event);
                if (received != null) {
                    answered |= received.kind() == JsonRpcMessage.Kind.RESPONSE && awaitedIdKey.equals(received.idKey());
                    listener.onMessage(received, awaitedIdKey);
                }
            }
            if (answered) {
                delivered.complete(null);
            } else {
                delivered.completeExceptionally(new McpException(McpException.Kind.CLOSED,
                        "response stream from " + endpoint + " ended before the response"));
            }
        } catch (IOException e) {
            McpException broken = new McpException(McpException.Kind.CLOSED, "response stream from " + endpoint + " broke: " + e.getMessage(), e);
            if (!closed) {
                lost(broken);
            }
            delivered.completeExceptionally(broken);
        } finally {
            openStreams.remove(body);
        }
    }

    /** The GET stream the server may use for its own requests and notifications. */
    private void openServerStream() {
        HttpRequest request = baseRequest(SERVER_STREAM_OPEN_TIMEOUT).header("Accept", "text/event-stream").GET().build();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()).whenComplete((response, error) -> {
            if (error != null) {
                LOG.log(Level.FINE, "GET stream at " + endpoint + " not opened", error);
                return;
            }
            if (response.statusCode() != 200) {
                // 405: the server has no stream for us, which the protocol allows
                HttpFailures.discard(response);
                LOG.fine(() -> "GET stream at " + endpoint + " answered " + response.statusCode());
                return;
            }
            try {
                executor.execute(() -> readServerStream(response.body()));
            } catch (RejectedExecutionException e) {
                closeQuietly(response.body());
                LOG.warning("no thread to read the GET stream of " + endpoint);
            }
        });
    }

    private void readServerStream(InputStream body) {
        openStreams.add(body);
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
            if (!closed) {
                lost(new McpException(McpException.Kind.CLOSED, "stream from " + endpoint + " broke: " + e.getMessage(), e));
            }
        } finally {
            openStreams.remove(body);
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

    private static void closeQuietly(Closeable stream) {
        try {
            stream.close();
        } catch (IOException e) {
            // already broken; nothing to release
        }
    }
}
