package dev.switchboard.sql.server;

import dev.switchboard.sql.Params;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.catalog.CatalogReads;
import dev.switchboard.sql.catalog.SchemaCatalog;
import dev.switchboard.sql.demo.DemoDatabase;
import dev.switchboard.sql.execute.GuardedExecutor;
import dev.switchboard.sql.execute.QueryConnectionSource;
import dev.switchboard.sql.guard.SqlGuard;
import dev.switchboard.sql.search.SchemaSearch;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * The query database of the NL->SQL service ({@code jdbc/query}, configured by {@code QUERY_DB_URL},
 * {@code QUERY_DB_USER}, {@code QUERY_DB_PASSWORD}) and the pieces built on it: catalog, search, guard, executor.
 * An empty H2 database (the embedded default) gets the demo schema and rows on first use.
 */
@ApplicationScoped
public class QueryDatabase {

    @Inject
    CatalogReads catalogReads;

    private static final Logger LOG = Logger.getLogger(QueryDatabase.class.getName());

    @Resource(lookup = "jdbc/query")
    DataSource dataSource;

    /** The guard's parser runs here under its time limit. */
    @Resource
    ManagedExecutorService executor;

    @Inject
    @ConfigProperty(name = "query.db.url", defaultValue = "")
    String url;

    @Inject
    @ConfigProperty(name = "query.schema.cache-ttl", defaultValue = "PT1H")
    Duration schemaTtl;

    @Inject
    @ConfigProperty(name = "query.limit.max-response-bytes", defaultValue = "104857600")
    long maxResponseBytes;

    private SchemaCatalog catalog;
    private SchemaSearch search;
    private SqlGuard guard;
    private GuardedExecutor guardedExecutor;

    @PostConstruct
    void init() {
        // the pool's URL is the operator's; a multi-statement connection would let a stacked query through a guard bug
        if (url.toLowerCase(Locale.ROOT).contains("allowmultiqueries=true")) {
            throw new IllegalStateException("QUERY_DB_URL must not set allowMultiQueries=true");
        }
        QueryConnectionSource connections = dataSource::getConnection;
        String databaseName;
        try (Connection connection = connections.open()) {
            databaseName = connection.getCatalog();
            loadDemoIfEmptyH2(connection);
        } catch (SQLException e) {
            // not cached by CDI: the next message tries again, so a database that comes back is used without a restart
            throw new QueryException(QueryErrorCode.DATABASE, "查询数据库不可用",
                    Params.data("mysql_error", String.valueOf(e.getMessage()), "mysql_errno", e.getErrorCode()), e);
        }
        catalog = new SchemaCatalog(() -> catalogReads.read(connections), schemaTtl, Clock.systemUTC());
        search = new SchemaSearch(catalog);
        guard = new SqlGuard(databaseName, catalog::tableNames, executor);
        guardedExecutor = new GuardedExecutor(connections, maxResponseBytes);
        LOG.info(() -> "Query database '" + databaseName + "' with " + catalog.tableNames().size() + " tables");
    }

    private static void loadDemoIfEmptyH2(Connection connection) throws SQLException {
        var meta = connection.getMetaData();
        if (!meta.getDatabaseProductName().toLowerCase(Locale.ROOT).contains("h2")) {
            return;
        }
        try (ResultSet tables = meta.getTables(connection.getCatalog(), connection.getSchema(), "%", new String[]{"TABLE"})) {
            if (tables.next()) {
                return;
            }
        }
        DemoDatabase.load(connection);
        LOG.info("Query database was empty: demo schema and rows loaded");
    }

    public SchemaCatalog catalog() {
        return catalog;
    }

    public SchemaSearch search() {
        return search;
    }

    public SqlGuard guard() {
        return guard;
    }

    public GuardedExecutor executor() {
        return guardedExecutor;
    }
}
