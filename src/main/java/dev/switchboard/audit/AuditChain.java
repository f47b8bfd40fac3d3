package dev.switchboard.audit;

import jakarta.persistence.EntityManager;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * number of writers (threads, instances of a cluster) can append at once: each tenant has a row in
 * {@code audit_chain_lock}, an append locks it ({@code SELECT ... FOR UPDATE}) and only then reads where the chain ends
 * and continues it, in one transaction. Nothing is remembered between appends: a chain end kept in memory would be
 * stale as soon as another writer appended.
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

    private static final Head EMPTY = new Head(0, GENESIS);
    private static final int MYSQL_DUPLICATE_ENTRY = 1062;

    /**
     * Gives each tenant its lock row, each in a statement of its own (autocommit, outside the appending transaction:
     * inserting a row that may exist, inside it, would share-lock the row, and two writers upgrading their share
     * locks would deadlock). A row another writer inserted first is what we wanted.
     */
    static void createLocks(Connection connection, Collection<String> tenants) throws SQLException {
        for (String tenant : tenants) {
            try (PreparedStatement insert = connection.prepareStatement("insert into audit_chain_lock (tenant_id) values (?)")) {
                insert.setString(1, tenant);
                insert.executeUpdate();
            } catch (SQLException e) {
                if (!isDuplicateKey(e)) {
                    throw e;
                }
            }
        }
    }

    /**
     * Appends a batch to its tenants' chains in the caller's transaction, which must read committed data (so the chain
     * end read after the lock is the one the writer before committed) and whose tenants have their lock rows
     * ({@link #createLocks}). The locks are taken in tenant order, so two writers with overlapping tenants never wait
     * on each other in a circle; a tenant's appends wait for the writer before them to commit.
     */
    static void append(Connection connection, List<AuditRecord> batch, AuditSecrets secrets) throws SQLException {
        Map<String, Head> heads = new TreeMap<>();
        for (AuditRecord record : batch) {
            heads.put(record.tenantId(), EMPTY);
        }
        for (String tenant : heads.keySet()) {
            lock(connection, tenant);
            heads.put(tenant, endOfEvents(connection, tenant).orElse(EMPTY));
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
    }

    private static void lock(Connection connection, String tenant) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("select tenant_id from audit_chain_lock where tenant_id = ? for update")) {
            query.setString(1, tenant);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("no audit chain lock row for tenant " + tenant);
                }
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

    /** A duplicate key: SQLSTATE 23505 (H2, the standard), error 1062 ER_DUP_ENTRY (MySQL and MariaDB, whose SQLSTATE is 23000 for every constraint). */
    static boolean isDuplicateKey(SQLException e) {
        return "23505".equals(e.getSQLState()) || e.getErrorCode() == MYSQL_DUPLICATE_ENTRY;
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
