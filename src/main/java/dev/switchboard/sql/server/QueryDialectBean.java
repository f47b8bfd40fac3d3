package dev.switchboard.sql.server;

import dev.switchboard.llm.LlmClient;
import dev.switchboard.sql.dialect.DialectChannel;
import dev.switchboard.sql.dialect.DialectMessageLimit;
import dev.switchboard.sql.dialect.QueryDialectHandler;
import dev.switchboard.sql.auth.JwksFetch;
import dev.switchboard.sql.auth.JwksKeys;
import dev.switchboard.sql.auth.PermissionMapping;
import dev.switchboard.sql.auth.TokenVerifier;
import dev.switchboard.sql.dialect.DialectSettings;
import dev.switchboard.sql.dialect.QueryMethods;
import dev.switchboard.sql.dialect.QueryDialectProtocol;
import dev.switchboard.sql.dialect.SessionWatch;
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

import javax.sql.DataSource;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The seed-000 dialect as the server runs it: the handler the /mcp WebSocket and the TCP transport hand messages
 * to, at most {@code query.limit.max-connections} dialect connections of both together. Requests run on a bounded
 * pool of container threads
 * ({@code query.threads}, queue {@code query.queue}); a full pool answers -32000.
 */
@ApplicationScoped
public class QueryDialectBean implements QueryDialectHandler {

    @Inject
    JwksFetch jwksFetch;

    @Inject
    QueryDatabase database;

    @Inject
    LlmClient llm;

    @Resource(lookup = "jdbc/switchboard")
    DataSource switchboardDb;

    @Resource
    ManagedThreadFactory threadFactory;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "jwt.issuer", defaultValue = "switchboard")
    String issuer;

    @Inject
    @ConfigProperty(name = "jwt.jwks-uri", defaultValue = "http://localhost:8080/api/auth/jwks")
    String jwksUri;

    @Inject
    @ConfigProperty(name = "jwt.audience", defaultValue = "switchboard")
    String audience;

    @Inject
    QueryPermissions permissions;

    @Inject
    @ConfigProperty(name = "query.session.ttl", defaultValue = "PT1H")
    Duration sessionTtl;

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
    @ConfigProperty(name = DialectMessageLimit.PROPERTY, defaultValue = DialectMessageLimit.SEED_DEFAULT)
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
    private ScheduledFuture<?> sweeper;
    private QueryDialectProtocol dialect;
    private QueryMethods methods;

    @PostConstruct
    void init() {
        Clock clock = Clock.systemUTC();
        SessionStore store = new SessionStore(switchboardDb, sessionTtl, clock);
        QueryService query = new QueryService(database.catalog(), database.search(), database.guard(), database.executor(),
                llm, store, clock);
        methods = new QueryMethods(query, new SchemaService(database.catalog(), database.search()),
                new SuggestService(database.catalog(), store), new SessionService(store));
        requests = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), threadFactory);
        requests.allowCoreThreadTimeOut(true);
        URI jwks = URI.create(jwksUri);
        TokenVerifier tokens = new TokenVerifier(new JwksKeys(jwks, () -> jwksFetch.fetch(jwks), clock),
                issuer, audience, clock);
        SessionWatch watch = new SessionWatch(store);
        sweeper = scheduler.scheduleWithFixedDelay(watch::sweep, 10, 10, TimeUnit.SECONDS);
        dialect = new QueryDialectProtocol(methods, tokens, permissions.mapping(), requests, scheduler, watch,
                new DialectSettings(maxConnections, requestsPerMinute, concurrentRequests, maxMessageBytes, progressInterval), clock);
    }

    @PreDestroy
    void stop() {
        sweeper.cancel(false);
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

    /** The role mapping ({@code query.role.*}) from token groups to seed permissions. */
    public PermissionMapping permissions() {
        return permissions.mapping();
    }

    /** Seed 000's {@code system.status} notification to every open dialect connection; returns how many got it. */
    public int broadcastStatus(JsonObject status) {
        return dialect.broadcast(status);
    }
}
