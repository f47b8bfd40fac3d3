package dev.switchboard.audit;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

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

    /** Connections of their own, outside JTA: the writer commits each batch itself. */
    @Resource(lookup = "jdbc/switchboard-audit")
    DataSource dataSource;

    @Inject
    AuditSecrets secrets;

    /**
     * Appends the batch in one local transaction and returns where each tenant's chain now ends. {@code knownHeads}
     * are chain ends the caller remembers from batches this writer committed, so a steady stream of events reads no
     * head from the database. Rows go in as one JDBC batch: a head read, a JPA flush and a JTA transaction per event
     * made the writer thread the gateway's busiest under load (bench/README.md, findings).
     */
    public synchronized Map<String, AuditChain.Head> write(List<AuditRecord> batch, Map<String, AuditChain.Head> knownHeads) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                Map<String, AuditChain.Head> heads = AuditChain.appendAll(connection, batch, secrets, knownHeads);
                connection.commit();
                return heads;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("audit batch of " + batch.size() + " events not written: " + e.getMessage(), e);
        }
    }
}
