package dev.switchboard.audit;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Writes a batch of events in one transaction, each appended to its tenant's chain. Appends in this instance are
 * serialised (the chain is a sequence); another instance appending at the same time hits the unique (tenant, seq)
 * key, and its batch is retried by {@link AuditLog}.
 */
@ApplicationScoped
public class AuditWriter {

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    AuditSecrets secrets;

    /**
     * Appends the batch and returns where each tenant's chain now ends. {@code knownHeads} are chain ends the caller
     * remembers from batches this writer committed, so a steady stream of events reads no head from the database.
     * Rows go in as one JDBC batch: a read, a JPA flush and an EclipseLink insert per event made the writer thread
     * the gateway's busiest under load (bench/README.md, findings).
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public synchronized Map<String, AuditChain.Head> write(List<AuditRecord> batch, Map<String, AuditChain.Head> knownHeads) {
        try (Connection connection = dataSource.getConnection()) {
            return AuditChain.appendAll(connection, batch, secrets, knownHeads);
        } catch (SQLException e) {
            throw new IllegalStateException("audit batch of " + batch.size() + " events not written: " + e.getMessage(), e);
        }
    }
}
