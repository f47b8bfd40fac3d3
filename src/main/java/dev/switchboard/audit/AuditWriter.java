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
     * Appends the batch and returns where each tenant's chain now ends. {@code knownHeads} are chain ends the caller
     * remembers from batches this writer committed, so a steady stream of events reads no head from the database;
     * a tenant missing there is read once. If another instance appended in between, the remembered head is stale and
     * the flush hits the unique (tenant, seq) key: the caller forgets its heads and retries (AuditLog). The batch
     * is flushed once: a read and a flush per event made the writer thread the gateway's busiest under load
     * (bench/README.md, findings).
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public synchronized Map<String, AuditChain.Head> write(List<AuditRecord> batch, Map<String, AuditChain.Head> knownHeads) {
        Map<String, AuditChain.Head> heads = new HashMap<>();
        for (AuditRecord record : batch) {
            AuditChain.Head head = heads.containsKey(record.tenantId()) ? heads.get(record.tenantId())
                    : knownHeads.containsKey(record.tenantId()) ? knownHeads.get(record.tenantId())
                    : AuditChain.head(em, record.tenantId()).orElse(null);
            heads.put(record.tenantId(), AuditChain.append(em, record,
                    record.input() == null ? null : secrets.hash(record.input()), head));
        }
        em.flush();
        return heads;
    }
}
