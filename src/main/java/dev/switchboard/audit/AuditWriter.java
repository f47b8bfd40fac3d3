package dev.switchboard.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /**
     * Each tenant's head is read once per batch and then followed in memory, and the batch is flushed once: a read
     * and a flush per event made the writer thread the gateway's busiest under load (bench/README.md, findings).
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public synchronized void write(List<AuditRecord> batch) {
        Map<String, AuditEvent> heads = new HashMap<>();
        for (AuditRecord record : batch) {
            AuditEvent head = heads.containsKey(record.tenantId()) ? heads.get(record.tenantId())
                    : AuditChain.head(em, record.tenantId()).orElse(null);
            heads.put(record.tenantId(), AuditChain.append(em, record,
                    record.input() == null ? null : secrets.hash(record.input()), head));
        }
        em.flush();
    }
}
