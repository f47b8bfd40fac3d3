package dev.switchboard.audit;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Writes a batch of events in one transaction, each appended to its tenant's chain ({@link AuditChain}: the tenant's
 * lock row is locked for the append, so writers in this and other instances take turns per tenant). Rows go in as one
 * JDBC batch: a head read, a JPA flush and a JTA transaction per event made the writer thread the gateway's busiest
 * under load (bench/README.md, findings).
 */
@ApplicationScoped
public class AuditWriter {

    /** Connections of their own, outside JTA: the writer commits each batch itself. */
    @Resource(lookup = "jdbc/switchboard-audit")
    DataSource dataSource;

    @Inject
    AuditSecrets secrets;

    /** Tenants whose lock row exists (lock rows are never deleted), so a steady stream of events inserts none. */
    private final Set<String> tenantsWithLock = ConcurrentHashMap.newKeySet();

    protected AuditWriter() {
    }

    /** A writer outside the container, e.g. a second writer on the same database in a test. */
    public AuditWriter(DataSource dataSource, AuditSecrets secrets) {
        this.dataSource = dataSource;
        this.secrets = secrets;
    }

    /** Appends the batch in one local transaction; returns once it committed, throws when it did not. */
    public void write(List<AuditRecord> batch) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            Set<String> newTenants = batch.stream().map(AuditRecord::tenantId).filter(t -> !tenantsWithLock.contains(t))
                    .collect(Collectors.toSet());
            AuditChain.createLocks(connection, newTenants);
            tenantsWithLock.addAll(newTenants);
            // each read sees what was committed before it (MySQL's default, repeatable read, would read a chain's end
            // as it was at the transaction's first read, before the writer this one waited for committed)
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            connection.setAutoCommit(false);
            try {
                AuditChain.append(connection, batch, secrets);
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** Whether the database answers at all: tells a database that is down from one that refuses an event. */
    public boolean databaseAnswers() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }
}
