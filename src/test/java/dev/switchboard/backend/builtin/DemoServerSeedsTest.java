package dev.switchboard.backend.builtin;

import dev.switchboard.backend.registry.McpServer;
import dev.switchboard.backend.registry.RecordedChanges;
import dev.switchboard.backend.registry.TransportKind;
import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A demo server is registered once per tenant, ever: a restart, a disabled or a deleted one does not bring it back. */
class DemoServerSeedsTest {

    private static Optional<Long> registerOnce(TestDatabase db, String tenant, String name) {
        return db.inTransaction(em -> {
            DemoServerSeeds seeds = new DemoServerSeeds();
            seeds.em = em;
            seeds.maxTimeout = 600;
            RecordedChanges changes = new RecordedChanges();
            seeds.changes = changes;
            Optional<Long> registered = seeds.registerOnce(tenant, name);
            // cached backend lists (SharedBackends) are dropped only when a registration is announced
            assertEquals(registered.isPresent() ? 1 : 0, changes.fired.size(), "announced exactly when registered");
            return registered;
        });
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void registeredOnceSharedAndNeverAgainAfterTheAdminDeletedIt(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            long id = registerOnce(db, "default", "sqlquery").orElseThrow();
            McpServer server = db.inTransaction(em -> em.find(McpServer.class, id));
            assertEquals(TransportKind.BUILTIN, server.getType());
            assertEquals("sqlquery", server.getCommand());
            assertEquals(McpServer.Scope.SHARED, server.getScope());
            assertEquals(DemoServerSeeds.OWNER, server.getUserId());
            assertEquals(310, server.getTimeoutSeconds());
            assertTrue(server.isActive());

            db.run(em -> em.find(McpServer.class, id).setActive(false));
            db.reopen();
            assertTrue(registerOnce(db, "default", "sqlquery").isEmpty(), "a restart registers nothing again");
            assertFalse(db.inTransaction(em -> em.find(McpServer.class, id)).isActive(), "the admin's disabling stays");

            db.run(em -> em.remove(em.find(McpServer.class, id)));
            assertTrue(registerOnce(db, "default", "sqlquery").isEmpty(), "a deleted demo server stays deleted");
            assertEquals(0L, (long) db.inTransaction(em -> em.createQuery("select count(s) from McpServer s", Long.class).getSingleResult()));

            assertTrue(registerOnce(db, "other", "sqlquery").isPresent(), "once per tenant");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aSharedServerOfTheSameNameIsLeftAloneAndNotShadowed(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            db.run(em -> {
                McpServer mine = new McpServer();
                mine.setUserId("admin");
                mine.setTenantId("default");
                mine.setScope(McpServer.Scope.SHARED);
                mine.setName("sqlquery");
                mine.setType(TransportKind.STREAMABLE_HTTP);
                mine.setBaseUrl("http://db-tools.example/mcp");
                mine.setTimeoutSeconds(60);
                em.persist(mine);
            });
            assertTrue(registerOnce(db, "default", "sqlquery").isEmpty());
            assertEquals(1L, (long) db.inTransaction(em -> em.createQuery("select count(s) from McpServer s", Long.class).getSingleResult()));
        }
    }
}
