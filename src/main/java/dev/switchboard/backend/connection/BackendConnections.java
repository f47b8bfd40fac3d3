package dev.switchboard.backend.connection;

import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.backend.pool.BackendSpecSource;
import dev.switchboard.backend.pool.ConnectionTest;
import dev.switchboard.backend.pool.PoolStats;
import dev.switchboard.backend.registry.McpServer;
import dev.switchboard.backend.registry.McpServerChanged;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.TrafficListener;
import dev.switchboard.backend.pool.PoolConfig;
import dev.switchboard.mcp.client.DefaultMcpConnector;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.logging.Logger;

/**
 * The registry's view of live backend connections: one pooled session per (caller, server), tested, listed,
 * dropped when the server changes. The caller's own token never travels: the spec carries the server's
 * configured credentials only.
 */
@ApplicationScoped
public class BackendConnections {

    private static final Logger LOG = Logger.getLogger(BackendConnections.class.getName());

    @Resource
    ManagedThreadFactory threadFactory;

    @Inject
    @ConfigProperty(name = "switchboard.pool.connect-timeout", defaultValue = "PT30S")
    Duration connectTimeout;

    @Inject
    @ConfigProperty(name = "switchboard.pool.tool-cache-ttl", defaultValue = "PT5M")
    Duration toolCacheTtl;

    @Inject
    @ConfigProperty(name = "switchboard.pool.idle-timeout", defaultValue = "PT30M")
    Duration idleTimeout;

    @Inject
    @ConfigProperty(name = "switchboard.chat.max-tool-rounds", defaultValue = "20")
    int maxToolRounds;

    @Inject
    @ConfigProperty(name = "switchboard.pool.http-connections-per-backend", defaultValue = "" + DefaultMcpConnector.DEFAULT_MAX_CONNECTIONS_PER_BACKEND)
    int httpConnectionsPerBackend;

    @Inject
    @ConfigProperty(name = "switchboard.pool.http-connections", defaultValue = "" + DefaultMcpConnector.DEFAULT_MAX_CONNECTIONS)
    int httpConnections;

    private BackendConnectionPool pool;
    private DefaultMcpConnector connector;
    private ExecutorService connectionThreads;
    private ScheduledThreadPoolExecutor deadlines;

    /**
     * The MCP client system's MCP_CLIENT_CONFIG as defaults. Backend I/O runs on managed threads of its own: a connection's
     * readers block for as long as it lives, and on the container's shared pool (which grows only slowly while its
     * threads are blocked) a burst of new connections, e.g. one gateway listing that connects every backend at
     * once, waited seconds for a thread to read its handshake.
     * <p>
     * Request deadlines fire on a plain scheduled pool of managed threads rather than the container's managed
     * scheduler: nearly every deadline is cancelled because its answer came first, and the container's cancel builds
     * a {@code CancellationException} with its stack trace each time (a visible share of a gateway call's CPU).
     */
    @PostConstruct
    void start() {
        PoolConfig config = new PoolConfig(connectTimeout, toolCacheTtl, idleTimeout, maxToolRounds);
        connectionThreads = Executors.newCachedThreadPool(threadFactory);
        deadlines = new ScheduledThreadPoolExecutor(1, threadFactory);
        deadlines.setRemoveOnCancelPolicy(true);
        connector = new DefaultMcpConnector(connectionThreads, deadlines, TrafficListener.NONE,
                httpConnectionsPerBackend, httpConnections);
        pool = new BackendConnectionPool(connector, config, Clock.systemUTC());
        LOG.info(() -> "MCP connection pool: connect timeout " + connectTimeout + ", tool cache " + toolCacheTtl
                + ", idle timeout " + idleTimeout + ", max tool rounds " + maxToolRounds + ", HTTP connections "
                + httpConnectionsPerBackend + " per backend, " + httpConnections + " in all");
    }

    /** @param admin whether the caller sees the last failure in full ({@link BackendFailureText}) */
    public ConnectionStatus status(String subject, long serverId, boolean admin) {
        return pool.connection(subject, String.valueOf(serverId))
                .map(s -> new ConnectionStatus(s.state().name().toLowerCase(Locale.ROOT),
                        s.lastFailure() == null ? null : BackendFailureText.forCaller(s.lastFailure(), admin), s.cachedTools()))
                .orElse(new ConnectionStatus("disconnected", null, -1));
    }

    /**
     * A fresh connection outside the pool (the settings may just have changed); never throws.
     *
     * @param admin whether the caller sees a failure in full ({@link BackendFailureText})
     */
    public ConnectionTestResult test(String subject, McpServer server, BackendSpecSource spec, boolean admin) {
        Instant started = Instant.now();
        try {
            ConnectionTest test = pool.testConnection(spec);
            var init = test.initialize();
            return ConnectionTestResult.ok(init.protocolVersion(), init.serverInfo(), init.capabilities(),
                    test.tools().size(), test.elapsed().toMillis());
        } catch (McpException e) {
            LOG.info(() -> "Connection test of MCP server " + server.getId() + " for " + subject + " failed: "
                    + e.kind() + " " + e.getMessage());
            return ConnectionTestResult.failed(BackendFailureText.asSeenBy(e, admin),
                    Duration.between(started, Instant.now()).toMillis());
        }
    }

    /** The server's tools through the caller's pooled connection (cached, see the pool's settings). */
    public List<JsonObject> tools(String subject, McpServer server, BackendSpecSource spec) throws McpException {
        return pool.listTools(subject, String.valueOf(server.getId()), spec, Duration.ofSeconds(server.getTimeoutSeconds()));
    }

    /**
     * Calls a tool through the caller's pooled connection, with the server's own timeout. A tool's failure is a
     * result ({@code isError: true}); the exception means the call could not be made or answered.
     */
    public JsonObject callTool(String subject, McpServer server, BackendSpecSource spec, String toolName, JsonObject arguments)
            throws McpException {
        return pool.callTool(subject, String.valueOf(server.getId()), spec, toolName, arguments,
                Duration.ofSeconds(server.getTimeoutSeconds()), null);
    }

    /** The pool itself, for the gateway, which forwards arbitrary requests through the same sessions. */
    public BackendConnectionPool pool() {
        return pool;
    }

    public PoolStats stats() {
        return pool.stats();
    }

    int reapIdle() {
        return pool.reapIdle(Instant.now());
    }

    void onServerChanged(@Observes McpServerChanged change) {
        int closed = pool.evict(String.valueOf(change.serverId()));
        if (closed > 0) {
            LOG.info(() -> "MCP server " + change.serverId() + (change.deleted() ? " deleted" : " changed")
                    + ": closed " + closed + " live connection(s)");
        }
    }

    @PreDestroy
    void close() {
        pool.close();
        connector.close();
        connectionThreads.shutdownNow();
        deadlines.shutdownNow();
    }
}
