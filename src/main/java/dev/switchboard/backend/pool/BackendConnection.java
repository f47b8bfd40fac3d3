package dev.switchboard.backend.pool;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.mcp.client.InitializeResult;
import dev.switchboard.mcp.client.McpClient;
import dev.switchboard.mcp.client.McpConnector;
import jakarta.json.JsonObject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * One user's live session with one backend (the MCP client system's {@code McpClientInstance}): connects on demand, shares one
 * connect among concurrent callers, caches the tool list, and drops a broken session so the next call reconnects.
 */
public final class BackendConnection {

    private static final Logger LOG = Logger.getLogger(BackendConnection.class.getName());
    /** Waiters on someone else's connect allow it this much beyond the connect timeout to report. */
    private static final long CONNECT_WAIT_SLACK_MILLIS = 2_000;

    private record CachedTools(List<JsonObject> tools, Instant fetchedAt) {
    }

    private final PoolKey key;
    private final long settingsVersion;
    private final McpConnector connector;
    private final PoolConfig config;
    private final Clock clock;
    private final Consumer<PoolKey> toolsChangedListener;
    private final Consumer<BackendNotification> notificationListener;
    private final BiFunction<PoolKey, String, ServerRequestHandler> outsideCalls;
    private final Object lock = new Object();
    /** Bumped by tools/list_changed and reconnects, so a listing that raced with one is not cached. */
    private final AtomicLong toolGeneration = new AtomicLong();

    // guarded by lock
    private McpClient client;
    private CompletableFuture<McpClient> connecting;
    private ConnectionState state = ConnectionState.DISCONNECTED;
    private McpException lastFailure;
    private Instant lastActiveAt;
    private int inFlight;
    private boolean retired;

    private volatile CachedTools toolCache;

    /**
     * @param settingsVersion      the version of the server's settings this connection is made from
     * @param toolsChangedListener told after the backend announced {@code tools/list_changed} and the cache was dropped
     * @param outsideCalls         who answers the backend's requests that belong to no call in flight (null: nobody)
     */
    BackendConnection(PoolKey key, long settingsVersion, McpConnector connector, PoolConfig config, Clock clock,
                      Consumer<PoolKey> toolsChangedListener, Consumer<BackendNotification> notificationListener,
                      BiFunction<PoolKey, String, ServerRequestHandler> outsideCalls) {
        this.key = key;
        this.settingsVersion = settingsVersion;
        this.connector = connector;
        this.config = config;
        this.clock = clock;
        this.toolsChangedListener = toolsChangedListener;
        this.notificationListener = notificationListener;
        this.outsideCalls = outsideCalls;
        this.lastActiveAt = clock.instant();
    }

    public PoolKey key() {
        return key;
    }

    long settingsVersion() {
        return settingsVersion;
    }

    public ConnectionSnapshot snapshot() {
        synchronized (lock) {
            CachedTools cached = toolCache;
            boolean connected = state == ConnectionState.CONNECTED && client != null;
            String version = connected ? client.initializeResult().protocolVersion() : null;
            return new ConnectionSnapshot(key, state, lastFailure, lastActiveAt, version, cached == null ? -1 : cached.tools().size(),
                    connected ? client.backendSessionId() : null);
        }
    }

    /** Sends a notification on the connection if it is open; a closed one has nobody to tell. */
    void notifyIfConnected(String method, JsonObject params) throws McpException {
        McpClient c;
        synchronized (lock) {
            c = state == ConnectionState.CONNECTED ? client : null;
        }
        if (c != null) {
            c.notify(method, params);
        }
    }

    /** The backend's tools, from the cache while it is fresh. */
    List<JsonObject> listTools(BackendSpecSource source, Duration timeout) throws McpException {
        CachedTools cached = toolCache;
        if (cached != null && clock.instant().isBefore(cached.fetchedAt().plus(config.toolCacheTtl()))) {
            return cached.tools();
        }
        McpClient c = ensureConnected(source);
        long generation = toolGeneration.get();
        try {
            List<JsonObject> tools = List.copyOf(c.listTools(timeout));
            if (toolGeneration.get() == generation) {
                toolCache = new CachedTools(tools, clock.instant());
            }
            return tools;
        } catch (McpException e) {
            failed(c, e);
            throw e;
        }
    }

    JsonObject callTool(BackendSpecSource source, String name, JsonObject arguments, Duration timeout,
                        Consumer<JsonObject> progress) throws McpException {
        McpClient c = ensureConnected(source);
        try {
            return c.callTool(name, arguments, timeout, progress);
        } catch (McpException e) {
            failed(c, e);
            throw e;
        }
    }

    JsonObject request(BackendSpecSource source, String method, JsonObject params, Duration timeout,
                       Consumer<JsonObject> progress, ServerRequestHandler serverRequests) throws McpException {
        McpClient c = ensureConnected(source);
        try {
            return c.request(method, params, timeout, progress, serverRequests);
        } catch (McpException e) {
            failed(c, e);
            throw e;
        }
    }

    /** The backend's answer to {@code initialize}, connecting first if needed. */
    InitializeResult initializeResult(BackendSpecSource source) throws McpException {
        return ensureConnected(source).initializeResult();
    }

    /** Registers a caller; false when the connection was retired and the caller must use a fresh one. */
    boolean acquire() {
        synchronized (lock) {
            if (retired) {
                return false;
            }
            inFlight++;
            lastActiveAt = clock.instant();
            return true;
        }
    }

    void release() {
        synchronized (lock) {
            inFlight--;
            lastActiveAt = clock.instant();
        }
    }

    /** Retires the connection if nobody used it since {@code cutoff}; the caller then removes and closes it. */
    boolean retireIfIdleSince(Instant cutoff) {
        synchronized (lock) {
            if (inFlight == 0 && lastActiveAt.isBefore(cutoff)) {
                retired = true;
                return true;
            }
            return false;
        }
    }

    /** Retires the connection and ends its session; calls in flight fail with CLOSED. */
    void close() {
        McpClient toClose;
        synchronized (lock) {
            retired = true;
            toClose = client;
            client = null;
            state = ConnectionState.DISCONNECTED;
            toolCache = null;
        }
        if (toClose != null) {
            toClose.close();
        }
    }

    private McpClient ensureConnected(BackendSpecSource source) throws McpException {
        CompletableFuture<McpClient> attempt;
        boolean mine = false;
        McpClient stale = null;
        synchronized (lock) {
            if (retired) {
                throw new McpException(McpException.Kind.CLOSED, "connection to " + key.serverId() + " was closed");
            }
            if (client != null && client.isOpen()) {
                return client;
            }
            if (connecting == null) {
                connecting = new CompletableFuture<>();
                mine = true;
                stale = client;
                client = null;
                state = ConnectionState.CONNECTING;
            }
            attempt = connecting;
        }
        if (stale != null) {
            stale.close();
        }
        if (mine) {
            connect(source, attempt);
        }
        return await(attempt);
    }

    private void connect(BackendSpecSource source, CompletableFuture<McpClient> attempt) {
        McpClient connected = null;
        try {
            connected = connector.connect(source.get(), config.connectTimeout());
            McpClient c = connected;
            c.onToolsListChanged(() -> toolsChanged(c));
            for (String method : BackendNotification.RELAYED) {
                c.onNotification(method, params -> notified(c, method, params));
            }
            c.onConnectionLost(cause -> failed(c, cause));
            c.onServerRequestOutsideCalls(method -> outsideCalls.apply(key, method));
            synchronized (lock) {
                connecting = null;
                if (retired) {
                    throw new McpException(McpException.Kind.CLOSED, "connection to " + key.serverId() + " was closed while connecting");
                }
                client = c;
                state = ConnectionState.CONNECTED;
                lastFailure = null;
                toolGeneration.incrementAndGet();
                toolCache = null;
            }
            attempt.complete(c);
            if (!c.isOpen()) {
                // lost between connect and registering the listener: the listener will not fire
                failed(c, new McpException(McpException.Kind.CLOSED, "connection lost right after connecting"));
            }
        } catch (McpException | RuntimeException e) {
            McpException error = e instanceof McpException m ? m
                    : new McpException(McpException.Kind.PROTOCOL, "connect to " + key.serverId() + " failed: " + e, e);
            synchronized (lock) {
                connecting = null;
                if (!retired) {
                    state = ConnectionState.ERROR;
                    lastFailure = error;
                }
            }
            if (connected != null) {
                connected.close();
            }
            attempt.completeExceptionally(error);
        }
    }

    private McpClient await(CompletableFuture<McpClient> attempt) throws McpException {
        try {
            return attempt.get(config.connectTimeout().toMillis() + CONNECT_WAIT_SLACK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new McpException(McpException.Kind.CANCELLED, "interrupted while connecting to " + key.serverId());
        } catch (ExecutionException e) {
            throw e.getCause() instanceof McpException m ? m
                    : new McpException(McpException.Kind.PROTOCOL, "connect failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new McpException(McpException.Kind.TIMEOUT, "connect to " + key.serverId() + " did not finish in time");
        }
    }

    private void toolsChanged(McpClient source) {
        synchronized (lock) {
            if (client != source) {
                return;
            }
        }
        toolGeneration.incrementAndGet();
        toolCache = null;
        toolsChangedListener.accept(key);
    }

    private void notified(McpClient source, String method, JsonObject params) {
        synchronized (lock) {
            if (client != source) {
                return;
            }
        }
        notificationListener.accept(new BackendNotification(key, method, params));
    }

    /**
     * Drops the session if the failure means it is unusable: anything but a JSON-RPC error, a timeout, a cancel, or
     * one exchange that broke while the transport still holds the session. A slow tool or one refusing its arguments
     * says nothing about the connection; nor does a Streamable HTTP POST whose TCP connection was reset (the session
     * lives at the server, each POST is an exchange of its own): a transport that lost its session (a dead process, a
     * refused connection, 404, a GET stream it could not reopen) reports it and is no longer open. Dropping the session
     * for one broken exchange failed every other call in flight on it, which opened the breaker for its open time.
     * A broken exchange still drops the cached tool list: the next listing asks the backend, and a backend that died
     * is then found gone (its transport loses the session) and left out instead of listed from the cache.
     */
    private void failed(McpClient c, Throwable cause) {
        McpException.Kind kind = cause instanceof McpException m ? m.kind() : McpException.Kind.CLOSED;
        boolean brokenExchange = kind == McpException.Kind.CLOSED;
        boolean sessionUsable = c.isOpen() && (kind == McpException.Kind.RPC_ERROR
                || kind == McpException.Kind.TIMEOUT || kind == McpException.Kind.CANCELLED || brokenExchange);
        if (sessionUsable) {
            if (brokenExchange) {
                synchronized (lock) {
                    if (client == c) {
                        toolCache = null;
                    }
                }
            }
            return;
        }
        synchronized (lock) {
            if (client != c) {
                return;
            }
            client = null;
            toolCache = null;
            state = ConnectionState.ERROR;
            lastFailure = cause instanceof McpException m ? m
                    : new McpException(McpException.Kind.CLOSED, String.valueOf(cause.getMessage()), cause);
        }
        LOG.info(() -> "backend " + key.serverId() + " for " + key.userSubject() + " failed: " + cause.getMessage());
        c.close();
    }
}
