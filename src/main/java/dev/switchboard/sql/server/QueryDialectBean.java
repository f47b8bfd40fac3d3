package dev.switchboard.sql.server;

import dev.switchboard.llm.LlmClient;
import dev.switchboard.sql.dialect.DialectChannel;
import dev.switchboard.sql.dialect.DialectMessageLimit;
import dev.switchboard.sql.dialect.QueryDialectHandler;
import dev.switchboard.security.BearerTokens;
import dev.switchboard.sql.auth.PermissionMapping;
import dev.switchboard.sql.auth.TokenVerifier;
import dev.switchboard.sql.dialect.DialectSettings;
import dev.switchboard.sql.dialect.QueryMethods;
import dev.switchboard.sql.dialect.QueryDialectProtocol;
import dev.switchboard.sql.service.QueryService;
import dev.switchboard.sql.service.SchemaService;
import dev.switchboard.sql.service.SessionService;
import dev.switchboard.sql.service.SuggestService;
import dev.switchboard.sql.session.SessionStore;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The query dialect as the server runs it: the handler the /mcp WebSocket and the TCP transport hand messages
 * to, at most {@code query.limit.max-connections} dialect connections of both together. Requests run on a bounded
 * pool of container threads
 * ({@code query.threads}, queue {@code query.queue}); a full pool answers -32000.
 */
@ApplicationScoped
public class QueryDialectBean implements QueryDialectHandler {

    @Inject
    QueryDatabase database;

    @Inject
    LlmClient llm;

    @Resource
    ManagedThreadFactory threadFactory;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    BearerTokens bearerTokens;

    @Inject
    QueryPermissions permissions;

    @Inject
    QuerySessions sessions;

    @Inject
    @ConfigProperty(name = "query.limit.max-connections", defaultValue = "1000")
    int maxConnections;

    @Inject
    @ConfigProperty(name = "query.limit.requests-per-minute", defaultValue = "100")
    int requestsPerMinute;

    @Inject
    @ConfigProperty(name = "query.limit.concurrent-requests", defaultValue = "10")
    int concurrentRequests;

    @Inject
    @ConfigProperty(name = DialectMessageLimit.PROPERTY, defaultValue = DialectMessageLimit.DEFAULT_BYTES)
    int maxMessageBytes;

    @Inject
    @ConfigProperty(name = "query.progress-interval", defaultValue = "PT5S")
    Duration progressInterval;

    @Inject
    @ConfigProperty(name = "query.threads", defaultValue = "16")
    int threads;

    @Inject
    @ConfigProperty(name = "query.queue", defaultValue = "256")
    int queue;

    private ThreadPoolExecutor requests;
    private QueryDialectProtocol dialect;
    private QueryMethods methods;

    @PostConstruct
    void init() {
        Clock clock = Clock.systemUTC();
        SessionStore store = sessions.store();
        QueryService query = new QueryService(database.catalog(), database.search(), database.guard(), database.executor(),
                llm, store, clock);
        methods = new QueryMethods(query, new SchemaService(database.catalog(), database.search()),
                new SuggestService(database.catalog(), store), new SessionService(store));
        requests = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), threadFactory);
        requests.allowCoreThreadTimeOut(true);
        TokenVerifier tokens = new TokenVerifier(bearerTokens::verify);
        dialect = new QueryDialectProtocol(methods, tokens, permissions.mapping(), requests, scheduler, sessions.watch(),
                new DialectSettings(maxConnections, requestsPerMinute, concurrentRequests, maxMessageBytes, progressInterval), clock);
    }

    @PreDestroy
    void stop() {
        requests.shutdownNow();
    }

    @Override
    public void onMessage(JsonObject message, DialectChannel channel) {
        dialect.onMessage(message, channel);
    }

    @Override
    public void onClose(DialectChannel channel) {
        dialect.onClose(channel);
    }

    /** The query, schema and session methods, which the built-in {@code sqlquery} MCP server serves too. */
    public QueryMethods methods() {
        return methods;
    }

    /** The role mapping ({@code query.role.*}) from token groups to dialect permissions. */
    public PermissionMapping permissions() {
        return permissions.mapping();
    }

    /** The query dialect's {@code system.status} notification to every open dialect connection; returns how many got it. */
    public int broadcastStatus(JsonObject status) {
        return dialect.broadcast(status);
    }
}
