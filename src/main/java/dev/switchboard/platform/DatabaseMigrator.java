package dev.switchboard.platform;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;

/**
 * Brings the schema up to date before anything else touches the database.
 * Bean-managed transactions: Flyway commits on its own, which a container transaction would forbid.
 */
@Singleton
@Startup
@TransactionManagement(TransactionManagementType.BEAN)
public class DatabaseMigrator {

    private static final Logger LOG = Logger.getLogger(DatabaseMigrator.class.getName());

    @Resource(lookup = "jdbc/switchboard")
    private DataSource dataSource;

    @PostConstruct
    void migrate() {
        LOG.info(() -> "Database: " + describe(dataSource));
        // Liberty's class loader only lets Flyway scan folders that hold an empty flyway.location file
        // (db/migration, and db/callback, which Flyway always scans)
        Flyway flyway = Flyway.configure(DatabaseMigrator.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load();
        MigrateResult result = flyway.migrate();
        LOG.info(() -> "Database schema at version " + flyway.info().current().getVersion()
                + " (" + result.migrationsExecuted + " migrations applied now)");
    }

    private static String describe(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            var meta = connection.getMetaData();
            return meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion() + " at "
                    + meta.getURL().replaceAll("(?i)(password|pwd)=[^&;]*", "$1=******");
        } catch (SQLException e) {
            throw new IllegalStateException("Database not reachable: " + e.getMessage(), e);
        }
    }
}
