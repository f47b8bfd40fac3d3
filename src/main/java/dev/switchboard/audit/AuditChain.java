package dev.switchboard.audit;

import jakarta.persistence.EntityManager;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Appends events to a tenant's chain and verifies chains. Appends are serialised per tenant by the database, so any
 * number of writers (threads, instances of a cluster) can append at once: each tenant has a head row in
 * {@code audit_chain_head} holding where its chain ends, and an append locks it ({@code SELECT ... FOR UPDATE}),
 * continues the chain from it and moves it in the same transaction. Nothing is remembered between appends: a chain's
 * end read from memory would be stale as soon as another writer appended.
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

    /** Where a tenant's chain ends: the newest event's sequence number and row hash (0 and genesis when empty). */
    record Head(long seq, String rowHash) {
    }

    /**
     * Gives each tenant a head row, each in a statement of its own (autocommit, outside the appending transaction:
     * inserting a row that may exist, inside it, would share-lock the row and two writers upgrading their share
     * locks would deadlock). The head starts where the tenant's events end, at genesis for a new tenant. A row another
     * writer inserted first is what we wanted.
     */
    static void createHeads(Connection connection, Collection<String> tenants) throws SQLException {
        for (String tenant : tenants) {
            Head end = endOfEvents(connection, tenant).orElse(new Head(0, GENESIS));
            try (PreparedStatement insert = connection.prepareStatement(
                    "insert into audit_chain_head (tenant_id, chain_seq, row_hash) values (?, ?, ?)")) {
                insert.setString(1, tenant);
                insert.setLong(2, end.seq());
                insert.setString(3, end.rowHash());
                insert.executeUpdate();
            } catch (SQLException e) {
                if (!isDuplicateKey(e)) {
                    throw e;
                }
            }
        }
    }

    /**
     * Appends a batch to its tenants' chains in the caller's transaction, which must have created their head rows
     * ({@link #createHeads}). The heads are locked in tenant order, so two writers with overlapping tenants never wait
     * on each other in a circle; a tenant's appends wait for the writer before them to commit.
     */
    static void append(Connection connection, List<AuditRecord> batch, AuditSecrets secrets) throws SQLException {
        Map<String, Head> heads = new TreeMap<>();
        for (AuditRecord record : batch) {
            heads.put(record.tenantId(), null);
        }
        for (String tenant : heads.keySet()) {
            heads.put(tenant, lockHead(connection, tenant));
        }
        try (PreparedStatement insert = connection.prepareStatement(AuditEvent.INSERT)) {
            for (AuditRecord record : batch) {
                Head head = heads.get(record.tenantId());
                AuditEvent event = new AuditEvent(record, record.input() == null ? null : secrets.hash(record.input()),
                        head.seq() + 1, head.rowHash());
                event.bindInsert(insert);
                insert.addBatch();
                heads.put(record.tenantId(), new Head(head.seq() + 1, event.getRowHash()));
            }
            insert.executeBatch();
        }
        try (PreparedStatement move = connection.prepareStatement(
                "update audit_chain_head set chain_seq = ?, row_hash = ? where tenant_id = ?")) {
            for (Map.Entry<String, Head> head : heads.entrySet()) {
                move.setLong(1, head.getValue().seq());
                move.setString(2, head.getValue().rowHash());
                move.setString(3, head.getKey());
                move.addBatch();
            }
            move.executeBatch();
        }
    }

    private static Head lockHead(Connection connection, String tenant) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "select chain_seq, row_hash from audit_chain_head where tenant_id = ? for update")) {
            query.setString(1, tenant);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("no audit chain head for tenant " + tenant);
                }
                return new Head(row.getLong(1), row.getString(2));
            }
        }
    }

    /** The newest event of the tenant in the event table. */
    static Optional<Head> endOfEvents(Connection connection, String tenantId) throws SQLException {
        // ordered by both columns of uq_audit_chain so the database walks that index backwards to the head: ordered
        // by chain_seq alone, H2 read and sorted every row of the tenant on each look-up (bench/README.md, findings)
        try (PreparedStatement query = connection.prepareStatement("select chain_seq, row_hash from audit_event "
                + "where tenant_id = ? order by tenant_id desc, chain_seq desc limit 1")) {
            query.setString(1, tenantId);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(new Head(row.getLong(1), row.getString(2))) : Optional.empty();
            }
        }
    }

    /** SQLSTATE class 23, integrity constraint violation: here, the head row is there already. */
    private static boolean isDuplicateKey(SQLException e) {
        return e instanceof SQLIntegrityConstraintViolationException
                || (e.getSQLState() != null && e.getSQLState().startsWith("23"));
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
            // ordered by both columns of uq_audit_chain, as in endOfEvents(): ordered by chain_seq alone, H2 sorted every
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
