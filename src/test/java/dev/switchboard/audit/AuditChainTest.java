package dev.switchboard.audit;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tenant hash chain on each database: appends link up, and editing or deleting a row is detected. */
class AuditChainTest {

    static final AuditSecrets SECRETS = new AuditSecrets(Map.of(1, "secret-one-0123456789abcdef0123".getBytes()), Set.of());

    static AuditRecord record(String tenant, String tool, JsonObject input) {
        return new AuditRecord(1_700_000_000_000L, tenant, "client-1", "alice", "tools/call", tool, "7", "allow",
                "4bf92f3577b34da6a3ce929d0e0e4736", input, "ok", 12L);
    }

    /** Appends one event at a time, each in its own transaction. */
    static void appendMany(TestDatabase db, String tenant, int count) throws SQLException {
        AuditWriter writer = new AuditWriter(db.dataSource(), SECRETS);
        for (int i = 0; i < count; i++) {
            JsonObject input = Json.createObjectBuilder().add("message", "hello " + i).build();
            writer.write(List.of(record(tenant, "everything__echo", input)));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void chainsArePerTenantAndVerify(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            appendMany(db, "acme", 5);
            appendMany(db, "globex", 3);
            db.reopen();
            AuditChain.Verification acme = db.inTransaction(em -> AuditChain.verify(em, "acme"));
            assertTrue(acme.valid(), acme.toString());
            assertEquals(5, acme.checked());
            assertEquals(3, db.inTransaction(em -> AuditChain.verify(em, "globex")).checked());
            assertEquals(0, db.inTransaction(em -> AuditChain.verify(em, "nobody")).checked());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aBatchOfInterleavedTenantsContinuesEachChainInOneTransaction(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            appendMany(db, "acme", 2);
            JsonObject input = Json.createObjectBuilder().add("message", "batched").build();
            AuditWriter writer = new AuditWriter(db.dataSource(), SECRETS);
            writer.write(List.of(record("acme", "everything__echo", input), record("globex", "everything__echo", input),
                    record("acme", "everything__echo", null), record("globex", "everything__echo", input),
                    record("acme", "everything__echo", input)));
            writer.write(List.of(record("acme", "everything__echo", input)));
            db.reopen();
            AuditChain.Verification acme = db.inTransaction(em -> AuditChain.verify(em, "acme"));
            assertTrue(acme.valid(), acme.toString());
            assertEquals(6, acme.checked());
            AuditChain.Verification globex = db.inTransaction(em -> AuditChain.verify(em, "globex"));
            assertTrue(globex.valid(), globex.toString());
            assertEquals(2, globex.checked());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aChainLongerThanOnePageIsWalkedToItsEndAndAGapOnALaterPageIsFound(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            AuditWriter writer = new AuditWriter(db.dataSource(), SECRETS);
            for (int batch = 0; batch < 13; batch++) {
                List<AuditRecord> records = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    JsonObject input = Json.createObjectBuilder().add("message", "hello " + batch + "/" + i).build();
                    records.add(record(i % 4 == 0 ? "globex" : "acme", "everything__echo", input));
                }
                writer.write(records);
            }
            AuditChain.Verification whole = db.inTransaction(em -> AuditChain.verify(em, "acme"));
            assertTrue(whole.valid(), whole.reason());
            assertEquals(975, whole.checked());
            assertEquals(325, db.inTransaction(em -> AuditChain.verify(em, "globex")).checked());
            try (Connection c = db.jdbc()) {
                c.createStatement().executeUpdate("delete from audit_event where tenant_id = 'acme' and chain_seq = 777");
            }
            AuditChain.Verification gap = db.inTransaction(em -> AuditChain.verify(em, "acme"));
            assertFalse(gap.valid());
            assertEquals(777, gap.brokenAtSeq());
            assertEquals(776, gap.checked());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void editingARowIsDetected(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            appendMany(db, "acme", 4);
            try (Connection c = db.jdbc()) {
                c.createStatement().executeUpdate("update audit_event set decision = 'deny' where tenant_id = 'acme' and chain_seq = 2");
            }
            AuditChain.Verification result = db.inTransaction(em -> AuditChain.verify(em, "acme"));
            assertFalse(result.valid());
            assertEquals(2, result.brokenAtSeq());
            assertTrue(result.reason().contains("changed"), result.reason());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void deletingARowIsDetected(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            appendMany(db, "acme", 4);
            try (Connection c = db.jdbc()) {
                c.createStatement().executeUpdate("delete from audit_event where tenant_id = 'acme' and chain_seq = 3");
            }
            AuditChain.Verification result = db.inTransaction(em -> AuditChain.verify(em, "acme"));
            assertFalse(result.valid());
            assertEquals(3, result.brokenAtSeq());
            assertTrue(result.reason().contains("missing"), result.reason());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void rewritingARowWithAFreshHashStillBreaksTheLinkToTheNext(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            appendMany(db, "acme", 3);
            // a forger who recomputes row 2's hash after editing it cannot fix row 3's prev_hash without rewriting it too
            db.run(em -> {
                AuditEvent second = em.createQuery("select e from AuditEvent e where e.chainSeq = 2", AuditEvent.class).getSingleResult();
                em.createQuery("update AuditEvent e set e.rowHash = :h where e.id = :id")
                        .setParameter("h", "f".repeat(64)).setParameter("id", second.getId()).executeUpdate();
            });
            AuditChain.Verification result = db.inTransaction(em -> AuditChain.verify(em, "acme"));
            assertFalse(result.valid());
            assertEquals(2, result.brokenAtSeq());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void eventsAppendedWithoutTheLockAreContinuedNotForked(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            appendMany(db, "acme", 3);
            try (Connection c = db.jdbc()) {
                c.createStatement().executeUpdate("delete from audit_chain_lock"); // as before migration V17
            }
            appendMany(db, "acme", 2);
            AuditChain.Verification acme = db.inTransaction(em -> AuditChain.verify(em, "acme"));
            assertTrue(acme.valid(), acme.toString());
            assertEquals(5, acme.checked());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aValueWiderThanItsColumnIsCutNotRefused(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            // 511 characters, then an emoji whose two halves straddle the column's end: cut before the emoji
            String name = "everything__" + "x".repeat(499) + "\uD83D\uDE00" + "y".repeat(100);
            new AuditWriter(db.dataSource(), SECRETS).write(List.of(record("acme", name, null)));
            assertEquals(511, (int) db.inTransaction(em -> em.createQuery("select e from AuditEvent e", AuditEvent.class)
                    .getSingleResult().toJson().getString("tool").length()));
            assertTrue(db.inTransaction(em -> AuditChain.verify(em, "acme")).valid());
        }
    }
}
