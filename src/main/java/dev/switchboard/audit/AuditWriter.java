package dev.switchboard.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.List;

/**
 * Writes a batch of events in one transaction, each appended to its tenant's chain. Appends in this instance are
 * serialised (the chain is a sequence); another instance appending at the same time hits the unique (tenant, seq)
 * key, and its batch is retried by {@link AuditLog}.
 */
@ApplicationScoped
public class AuditWriter {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    AuditSecrets secrets;

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public synchronized void write(List<AuditRecord> batch) {
        for (AuditRecord record : batch) {
            AuditChain.append(em, record, record.input() == null ? null : secrets.hash(record.input()));
            em.flush();
        }
    }
}
