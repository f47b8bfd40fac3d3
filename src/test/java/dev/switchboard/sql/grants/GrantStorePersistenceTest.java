package dev.switchboard.sql.grants;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.security.LocalUser;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The grant tables of migration V13 on H2 and MariaDB: idempotent grants, role overrides, a deleted user's grants gone. */
class GrantStorePersistenceTest {

    static final List<String> DEFAULTS = List.of("schema:read", "session:manage", "table:*:read");

    static <T> T withStore(TestDatabase db, Function<GrantStore, T> work) {
        return db.inTransaction((EntityManager em) -> {
            GrantStore store = new GrantStore();
            store.em = em;
            return work.apply(store);
        });
    }

    static long user(TestDatabase db, String name, String tenant) throws Exception {
        try (Connection c = db.jdbc(); PreparedStatement insert = c.prepareStatement("INSERT INTO app_user (username, password_hash, "
                + "role, tenant_id, created_at) VALUES (?, 'x', 'user', ?, 1)", Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, name);
            insert.setString(2, tenant);
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void grantsToUsersAreIdempotentListedByTenantAndGoWithTheUser(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            long aliceId = user(db, "alice", "acme");
            user(db, "bob", "acme");
            Function<String, LocalUser> find = name -> db.inTransaction(em -> em.createQuery(
                    "SELECT u FROM LocalUser u WHERE u.username = :n", LocalUser.class).setParameter("n", name).getSingleResult());
            LocalUser alice = find.apply("alice");
            LocalUser bob = find.apply("bob");
            assertTrue((boolean) withStore(db, s -> s.grant(alice, "table:orders:read", "admin").created()));
            assertFalse((boolean) withStore(db, s -> s.grant(alice, "table:orders:read", "root").created()), "granted already");
            assertEquals("admin", withStore(db, s -> s.grant(alice, "table:orders:read", "root").grant().grantedBy()), "the first grant is kept");
            withStore(db, s -> s.grant(alice, "schema:read", "admin"));
            withStore(db, s -> s.grant(bob, "table:users:read", "admin"));

            assertEquals(3L, (long) withStore(db, s -> s.countUserGrants("acme", null)));
            assertEquals(List.of("alice schema:read", "alice table:orders:read", "bob table:users:read"),
                    withStore(db, s -> s.userGrants("acme", null, 0, 10)).stream().map(g -> g.username() + " " + g.permission()).toList());
            assertEquals(List.of("alice table:orders:read", "bob table:users:read"),
                    withStore(db, s -> s.userGrants("acme", null, 1, 10)).stream().map(g -> g.username() + " " + g.permission()).toList());
            assertEquals(List.of("bob table:users:read"),
                    withStore(db, s -> s.userGrants("acme", "bob", 0, 10)).stream().map(g -> g.username() + " " + g.permission()).toList());
            assertEquals(0L, (long) withStore(db, s -> s.countUserGrants("other", null)));

            assertTrue((boolean) withStore(db, s -> s.revoke(alice, "schema:read")));
            assertFalse((boolean) withStore(db, s -> s.revoke(alice, "schema:read")), "revoked already");

            try (Connection c = db.jdbc(); Statement st = c.createStatement()) {
                st.executeUpdate("DELETE FROM app_user WHERE id = " + aliceId);
            }
            assertEquals(List.of("bob table:users:read"),
                    withStore(db, s -> s.userGrants("acme", null, 0, 10)).stream().map(g -> g.username() + " " + g.permission()).toList(),
                    "a deleted user's grants are deleted with it, so a new alice starts with none");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void theFirstChangeToARoleStartsFromItsDefault(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            assertEquals(Map.of(), withStore(db, s -> s.roles("acme")), "no admin has set a role: every role holds its default");
            assertFalse((boolean) withStore(db, s -> s.revoke("acme", "user", "table:orders:read", "admin", DEFAULTS)),
                    "the default does not hold it");
            assertEquals(Map.of(), withStore(db, s -> s.roles("acme")), "and nothing was written");

            assertTrue((boolean) withStore(db, s -> s.revoke("acme", "user", "table:*:read", "admin", DEFAULTS)));
            assertEquals(Map.of("user", Set.of("schema:read", "session:manage")), withStore(db, s -> s.roles("acme")));
            assertEquals("query.role.user", withStore(db, s -> s.roleGrants("acme")).get(0).grantedBy(), "copied from the default");
            assertTrue((boolean) withStore(db, s -> s.grant("acme", "user", "table:orders:read", "admin", DEFAULTS)).created());
            assertFalse((boolean) withStore(db, s -> s.grant("acme", "user", "schema:read", "admin", DEFAULTS)).created());
            assertTrue((boolean) withStore(db, s -> s.revoke("acme", "user", "schema:read", "admin", DEFAULTS)));
            assertTrue((boolean) withStore(db, s -> s.revoke("acme", "user", "session:manage", "admin", DEFAULTS)));
            assertTrue((boolean) withStore(db, s -> s.revoke("acme", "user", "table:orders:read", "admin", DEFAULTS)));
            assertEquals(Map.of("user", Set.of()), withStore(db, s -> s.roles("acme")),
                    "every grant revoked: the role holds nothing, not its default again");
            assertEquals(Map.of(), withStore(db, s -> s.roles("globex")), "another tenant is untouched");
        }
    }
}
