package dev.switchboard.audit;

import jakarta.persistence.EntityManager;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Appends events to a tenant's chain and verifies chains. Pure JPA, so it runs in the server and in tests alike;
 * callers serialise appends per tenant, and the unique (tenant, seq) key refuses a fork from a second instance.
 */
public final class AuditChain {

    /** The previous hash of a tenant's first event. */
    static final String GENESIS = "0".repeat(64);
    private static final int PAGE = 500;

    /** What a verification found. {@code brokenAtSeq} is the first sequence number that does not fit, else -1. */
    public record Verification(String tenantId, boolean valid, long checked, long brokenAtSeq, String reason) {
    }

    private AuditChain() {
    }

    /** Where a tenant's chain ends: the newest event's sequence number and row hash. */
    record Head(long seq, String rowHash) {
    }

    /**
     * Appends a batch to its tenants' chains on one connection, in the caller's transaction, and returns where each
     * touched chain now ends. A chain end is taken from {@code knownHeads} (what the caller remembers from its own
     * committed appends) or read once; a stale one collides with the unique (tenant, seq) key.
     */
    static Map<String, Head> appendAll(Connection connection, List<AuditRecord> batch, AuditSecrets secrets,
                                       Map<String, Head> knownHeads) throws SQLException {
        Map<String, Head> heads = new HashMap<>();
        try (PreparedStatement insert = connection.prepareStatement(AuditEvent.INSERT)) {
            for (AuditRecord record : batch) {
                Head head = heads.containsKey(record.tenantId()) ? heads.get(record.tenantId())
                        : knownHeads.containsKey(record.tenantId()) ? knownHeads.get(record.tenantId())
                        : head(connection, record.tenantId()).orElse(null);
                long seq = head == null ? 1 : head.seq() + 1;
                AuditEvent event = new AuditEvent(record, record.input() == null ? null : secrets.hash(record.input()),
                        seq, head == null ? GENESIS : head.rowHash());
                event.bindInsert(insert);
                insert.addBatch();
                heads.put(record.tenantId(), new Head(seq, event.getRowHash()));
            }
            insert.executeBatch();
        }
        return heads;
    }

    /** The end of the tenant's chain in the database. */
    static Optional<Head> head(Connection connection, String tenantId) throws SQLException {
        // ordered by both columns of uq_audit_chain so the database walks that index backwards to the head: ordered
        // by chain_seq alone, H2 read and sorted every row of the tenant on each append (bench/README.md, findings)
        try (PreparedStatement query = connection.prepareStatement("select chain_seq, row_hash from audit_event "
                + "where tenant_id = ? order by tenant_id desc, chain_seq desc limit 1")) {
            query.setString(1, tenantId);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(new Head(row.getLong(1), row.getString(2))) : Optional.empty();
            }
        }
    }

    /**
     * Walks a tenant's chain from its first event: each row must hash to its stored hash, point at the previous
     * row's hash and follow it without a gap. Deleting the newest rows leaves a valid shorter chain; the count
     * and the last sequence number in the answer let an operator compare with what they expect.
     */
    public static Verification verify(EntityManager em, String tenantId) {
        String prev = GENESIS;
        long expectedSeq = 1;
        long checked = 0;
        while (true) {
            // ordered by both columns of uq_audit_chain, as in head(): ordered by chain_seq alone, H2 sorted every
            // remaining row of the tenant for each page, and a chain of 300,000 events took over 5 minutes to verify
            List<AuditEvent> page = em.createQuery("select e from AuditEvent e where e.tenantId = :tenant and e.chainSeq >= :from "
                            + "order by e.tenantId, e.chainSeq", AuditEvent.class)
                    .setParameter("tenant", tenantId)
                    .setParameter("from", expectedSeq)
                    .setMaxResults(PAGE)
                    .getResultList();
            for (AuditEvent event : page) {
                if (event.getChainSeq() != expectedSeq) {
                    return new Verification(tenantId, false, checked, expectedSeq, "event " + expectedSeq + " is missing");
                }
                if (!event.getPrevHash().equals(prev)) {
                    return new Verification(tenantId, false, checked, expectedSeq, "event " + expectedSeq + " does not point at its predecessor");
                }
                if (!rowHash(event).equals(event.getRowHash())) {
                    return new Verification(tenantId, false, checked, expectedSeq, "event " + expectedSeq + " was changed after it was written");
                }
                prev = event.getRowHash();
                expectedSeq++;
                checked++;
            }
            if (page.size() < PAGE) {
                return new Verification(tenantId, true, checked, -1, null);
            }
            em.clear();
        }
    }

    static String rowHash(AuditEvent event) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(CanonicalJson.of(event.chainedFields()).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
