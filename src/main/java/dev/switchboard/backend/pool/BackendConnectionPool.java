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
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Every user's live backend sessions (the MCP client system's {@code MCPClientManager}), keyed by (user, server). Connects lazily,
 * reconnects after a failure on the next call, and is told by its owner when to reap idle sessions and when a
 * server changed. Free of JPA and container APIs: the caller supplies the decrypted {@code BackendSpec}.
 */
public final class BackendConnectionPool implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(BackendConnectionPool.class.getName());

    private final McpConnector connector;
    private final PoolConfig config;
    private final Clock clock;
    private final Map<PoolKey, BackendConnection> connections = new ConcurrentHashMap<>();
    private final AtomicLong totalCalls = new AtomicLong();
    private final AtomicLong failedCalls = new AtomicLong();
    private final List<Consumer<PoolKey>> toolsChangedListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<BackendNotification>> notificationListeners = new CopyOnWriteArrayList<>();
    private volatile BiFunction<PoolKey, String, ServerRequestHandler> outsideCalls = (key, method) -> null;

    public BackendConnectionPool(McpConnector connector, PoolConfig config, Clock clock) {
        this.connector = connector;
        this.config = config;
        this.clock = clock;
    }

    public PoolConfig config() {
        return config;
    }

    /**
     * Called (on a pool thread) whenever a backend announces {@code notifications/tools/list_changed} on one of the
     * pooled sessions, after that session's tool cache was dropped; the gateway tells its clients.
     */
    public void onToolsListChanged(Consumer<PoolKey> listener) {
        toolsChangedListeners.add(listener);
    }

    /**
     * Called (on a pool thread) for every {@link BackendNotification#RELAYED} notification a pooled session receives:
     * resource updates, list changes and log messages the gateway hands to its clients.
     */
    /**
     * Who answers a backend's requests that belong to no call in flight ({@code roots/list} asked on its own): given
     * the connection and the method, a handler, or null when nobody can be asked (the request is answered as before).
     */
    public void onServerRequestOutsideCalls(BiFunction<PoolKey, String, ServerRequestHandler> finder) {
        outsideCalls = finder;
    }

    /** Sends a notification to the caller's connection to the server if one is open (never connects for it). */
    public void notifyIfConnected(String userSubject, String serverId, String method, JsonObject params) throws McpException {
        BackendConnection connection = connections.get(new PoolKey(userSubject, serverId));
        if (connection != null) {
            connection.notifyIfConnected(method, params);
        }
    }

    public void onNotification(Consumer<BackendNotification> listener) {
        notificationListeners.add(listener);
    }

    /** The server's answer to {@code initialize} on its pooled session; connects first if needed. */
    public InitializeResult initializeResult(String userSubject, String serverId, BackendSpecSource source)
            throws McpException {
        BackendConnection connection = acquire(new PoolKey(userSubject, serverId), source.settingsVersion());
        try {
            return connection.initializeResult(source);
        } finally {
            connection.release();
        }
    }

    /** The server's tools (cached for {@link PoolConfig#toolCacheTtl()}, dropped on {@code tools/list_changed}). */
    public List<JsonObject> listTools(String userSubject, String serverId, BackendSpecSource source, Duration timeout)
            throws McpException {
        BackendConnection connection = acquire(new PoolKey(userSubject, serverId), source.settingsVersion());
        try {
            return connection.listTools(source, timeout);
        } finally {
            connection.release();
        }
    }

    /**
     * Calls a tool, connecting first if needed. A failure that breaks the session marks the connection ERROR;
     * the next call reconnects.
     *
     * @param progress receives the backend's progress notifications for this call, or null
     */
    public JsonObject callTool(String userSubject, String serverId, BackendSpecSource source, String toolName,
                               JsonObject arguments, Duration timeout, Consumer<JsonObject> progress) throws McpException {
        totalCalls.incrementAndGet();
        BackendConnection connection = acquire(new PoolKey(userSubject, serverId), source.settingsVersion());
        try {
            return connection.callTool(source, toolName, arguments, timeout, progress);
        } catch (McpException e) {
            failedCalls.incrementAndGet();
            throw e;
        } finally {
            connection.release();
        }
    }

    /**
     * Forwards any request with its params as given (the gateway's passthrough), connecting first if needed;
     * counted and failure-handled like {@link #callTool}.
     *
     * @param progress       receives the backend's progress notifications for this request, or null
     * @param serverRequests answers the backend's requests made while serving this one, or null
     */
    public JsonObject request(String userSubject, String serverId, BackendSpecSource source, String method,
                              JsonObject params, Duration timeout, Consumer<JsonObject> progress,
                              ServerRequestHandler serverRequests) throws McpException {
        totalCalls.incrementAndGet();
        BackendConnection connection = acquire(new PoolKey(userSubject, serverId), source.settingsVersion());
        try {
            return connection.request(source, method, params, timeout, progress, serverRequests);
        } catch (McpException e) {
            failedCalls.incrementAndGet();
            throw e;
        } finally {
            connection.release();
        }
    }

    /** Connects afresh outside the pool (the configuration may just have changed), lists the tools and disconnects. */
    public ConnectionTest testConnection(BackendSpecSource source) throws McpException {
        Instant started = clock.instant();
        try (McpClient client = connector.connect(source.get(), config.connectTimeout())) {
            List<JsonObject> tools = client.listTools(config.connectTimeout());
            return new ConnectionTest(client.initializeResult(), tools, Duration.between(started, clock.instant()));
        }
    }

    public Optional<ConnectionSnapshot> connection(String userSubject, String serverId) {
        return Optional.ofNullable(connections.get(new PoolKey(userSubject, serverId))).map(BackendConnection::snapshot);
    }

    public List<ConnectionSnapshot> connections() {
        return connections.values().stream().map(BackendConnection::snapshot).toList();
    }

    /** Closes connections unused for longer than {@link PoolConfig#idleTimeout()}; returns how many. */
    public int reapIdle(Instant now) {
        Instant cutoff = now.minus(config.idleTimeout());
        int reaped = 0;
        for (BackendConnection connection : List.copyOf(connections.values())) {
            if (connection.retireIfIdleSince(cutoff)) {
                connections.remove(connection.key(), connection);
                connection.close();
                reaped++;
            }
        }
        return reaped;
    }

    /** Closes every user's connection to a server that was edited or deleted; returns how many. */
    public int evict(String serverId) {
        List<BackendConnection> evicted = new ArrayList<>();
        connections.values().removeIf(connection -> {
            boolean match = connection.key().serverId().equals(serverId);
            if (match) {
                evicted.add(connection);
            }
            return match;
        });
        evicted.forEach(BackendConnection::close);
        return evicted.size();
    }

    public PoolStats stats() {
        Map<ConnectionState, Integer> byState = new EnumMap<>(ConnectionState.class);
        for (ConnectionState state : ConnectionState.values()) {
            byState.put(state, 0);
        }
        for (BackendConnection connection : connections.values()) {
            byState.merge(connection.snapshot().state(), 1, Integer::sum);
        }
        return new PoolStats(byState, totalCalls.get(), failedCalls.get());
    }

    /** Closes every connection. */
    @Override
    public void close() {
        List<BackendConnection> all = List.copyOf(connections.values());
        connections.clear();
        all.forEach(BackendConnection::close);
    }

    private void toolsChanged(PoolKey key) {
        toolsChangedListeners.forEach(listener -> listener.accept(key));
    }

    private void notified(BackendNotification notification) {
        notificationListeners.forEach(listener -> listener.accept(notification));
    }

    /**
     * The key's connection for a caller that read the server's settings at {@code settingsVersion}: a connection made
     * from older settings is dropped first (the server was edited, perhaps on another instance of a cluster).
     */
    private BackendConnection acquire(PoolKey key, long settingsVersion) {
        // a connection retired by the reaper between lookup and acquire is replaced by a fresh one
        while (true) {
            BackendConnection connection = connections.computeIfAbsent(key, k -> new BackendConnection(k, settingsVersion,
                    connector, config, clock, this::toolsChanged, this::notified,
                    (poolKey, method) -> outsideCalls.apply(poolKey, method)));
            if (connection.settingsVersion() < settingsVersion) {
                if (connections.remove(key, connection)) {
                    LOG.info(() -> "MCP server " + key.serverId() + " changed (settings version " + settingsVersion
                            + "): closed the connection of " + key.userSubject() + " made from version "
                            + connection.settingsVersion());
                    connection.close();
                }
                continue;
            }
            if (connection.acquire()) {
                return connection;
            }
            connections.remove(key, connection);
        }
    }
}
