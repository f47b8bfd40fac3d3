package dev.switchboard.inserver;

import dev.switchboard.backend.connection.BackendConnections;
import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.knowledge.KnowledgeRetriever;
import dev.switchboard.knowledge.KnowledgeServer;
import dev.switchboard.mcp.client.BackendSpec;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.security.LocalUsers;
import dev.switchboard.sql.server.QuerySessions;
import dev.switchboard.workspace.Workspace;
import dev.switchboard.workspace.Workspaces;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.annotation.RegistryScope;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What only the running server shows: the Flyway migrations applied to its own datasource, every JPA mapping
 * matching that schema, a failed transaction leaving nothing behind, and EJB timers firing (workspace expiry, query
 * session expiry, the idle connection reaper, the knowledge refresh, whose calls also pass Fault Tolerance's
 * interceptor). Short TTLs and intervals come from the pom's inserver-create bootstrap properties.
 */
@ExtendWith(ArquillianExtension.class)
class PersistenceAndTimersInServerIT {

    @Deployment
    static WebArchive deployment() {
        return InServerDeployment.of(PersistenceAndTimersInServerIT.class, PersistenceProbe.class);
    }

    @Resource(lookup = "jdbc/switchboard")
    DataSource switchboardDb;

    @Inject
    PersistenceProbe probe;

    @Inject
    LocalUsers users;

    @Inject
    Workspaces workspaces;

    @Inject
    KnowledgeRetriever knowledge;

    @Inject
    QuerySessions querySessions;

    @Inject
    BackendConnections connections;

    @Inject
    KnowledgeServer knowledgeServer;

    @Inject
    @RegistryScope(scope = MetricRegistry.BASE_SCOPE)
    MetricRegistry baseMetrics;

    @Test
    void everyMigrationInTheWarIsAppliedToTheServersOwnDatabase() {
        MigrationInfoService info = Flyway.configure(getClass().getClassLoader()).dataSource(switchboardDb)
                .locations("classpath:db/migration").load().info();
        assertEquals(0, info.pending().length, "pending: " + Arrays.toString(info.pending()));
        assertTrue(info.all().length >= 8, "the WAR's migrations were found: " + info.all().length);
        for (MigrationInfo migration : info.all()) {
            assertEquals(MigrationState.SUCCESS, migration.getState(), migration.getVersion() + " " + migration.getDescription());
        }
    }

    @Test
    void everyEntityMappingMatchesTheMigratedSchema() {
        Map<String, Long> rows = probe.rowsOfEveryEntity();
        assertTrue(rows.containsKey("LocalUser") && rows.containsKey("Assistant"), "entities found: " + rows.keySet());
        assertTrue(rows.get("LocalUser") >= 1, "the admin created at start: " + rows);
    }

    @Test
    void aTransactionThatFailsAfterItsWriteLeavesNothingBehind() {
        String username = "rollback-probe-" + System.nanoTime();
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> probe.createUserThenFail(username));
        assertEquals("failed after the write", failure.getMessage());
        assertTrue(users.find(username).isEmpty(), "the user created before the failure was rolled back");
    }

    @Test
    void theWorkspaceExpiryTimerDeletesAnIdleWorkspace() throws Exception {
        Workspace workspace = workspaces.open("default", "inserver", "expiry-probe");
        Path directory = workspace.directory();
        Files.writeString(directory.resolve("note.txt"), "to be swept");
        // switchboard.workspace.ttl PT3S, swept every second
        assertTrue(within(15, () -> !Files.exists(directory)), "the expiry timer deleted " + directory);
    }

    @Test
    void theQuerySessionExpiryTimerRemovesAnIdleSession() throws Exception {
        String id = querySessions.store().create("inserver-session-probe").id();
        assertEquals(1, sessionRows(id), "the session is stored");
        // query.session.ttl PT2S, swept every second
        assertTrue(within(15, () -> sessionRows(id) == 0), "the expiry timer removed session " + id);
    }

    /** A pooled connection to the built-in knowledge server (in the JVM: no process, no port), left idle. */
    @Test
    void theIdleConnectionReaperClosesAnIdleBackendConnection() throws Exception {
        BackendConnectionPool pool = connections.pool();
        String subject = "inserver-reaper-probe";
        String server = "reaper-probe-" + System.nanoTime();
        CallerIdentity caller = new CallerIdentity(subject, "default", Set.of("user"));
        List<JsonObject> tools = pool.listTools(subject, server, () -> BackendSpec.inProcess(knowledgeServer.serve(caller)),
                Duration.ofSeconds(10));
        assertEquals("search", tools.get(0).getString("name"));
        assertTrue(pool.connection(subject, server).isPresent(), "the connection is pooled");
        // switchboard.pool.idle-timeout PT2S, reaped every second
        assertTrue(within(15, () -> pool.connection(subject, server).isEmpty()), "the reaper closed the idle connection");
    }

    @Test
    void theKnowledgeRefreshTimerIndexesANewFileThroughTheFaultToleranceInterceptor() throws Exception {
        Path folder = knowledge.settings().folder();
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("inserver-probe.md"), "# Probe\n\nThe quokkazanzibar protocol is used by the in-server tests.\n");
        // switchboard.knowledge.refresh-interval PT1S
        assertTrue(within(20, () -> !knowledge.search("default", "quokkazanzibar", 3, 0.0).isEmpty()), "the refresh timer indexed the new file");

        // one counter per outcome (value returned, exception thrown) and fallback use: their sum is every call
        List<Counter> counters = List.copyOf(baseMetrics.getCounters((id, metric) -> id.getName().equals("ft.invocations.total")
                && "dev.switchboard.knowledge.KnowledgeRetriever.refreshIfChanged".equals(id.getTags().get("method"))).values());
        assertFalse(counters.isEmpty(), "Fault Tolerance counts the timer's calls: " + baseMetrics.getMetricIDs().stream()
                .filter(id -> id.getName().startsWith("ft.")).toList());
        assertTrue(counters.stream().mapToLong(Counter::getCount).sum() > 0, "calls counted");
    }

    private int sessionRows(String id) {
        try (Connection c = switchboardDb.getConnection();
             PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM query_sessions WHERE id = ?")) {
            count.setString(1, id);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean within(int seconds, BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < until) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(200);
        }
        return condition.getAsBoolean();
    }
}
