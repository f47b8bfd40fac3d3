package dev.switchboard.security;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import jakarta.persistence.PersistenceException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Users and API keys on each database: round trip after a restart, and the unique keys hold. */
class SecurityPersistenceTest {

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void usersAndKeysSurviveARestart(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            long userId = db.inTransaction(em -> {
                LocalUser user = new LocalUser("alice", "pbkdf2-sha256$1$salt$hash", Role.ADMIN, "acme", 5L);
                em.persist(user);
                em.persist(new ApiKey("ci", "…abcdefgh", "a".repeat(64), "jti-1", "alice", "acme", 6L, 7L));
                em.flush();
                return user.id();
            });
            db.reopen();
            LocalUser user = db.inTransaction(em -> em.find(LocalUser.class, userId));
            assertEquals("alice", user.username());
            assertEquals(Role.ADMIN, user.role());
            assertEquals("acme", user.tenantId());
            assertFalse(user.disabled());
            ApiKey key = db.inTransaction(em -> em.createQuery("select k from ApiKey k", ApiKey.class).getSingleResult());
            assertEquals("ci", key.name());
            assertEquals("alice", key.ownerSubject());
            assertEquals(7L, key.expiresAt());
            assertNull(key.revokedAt());

            assertThrows(PersistenceException.class, () -> db.run(em -> {
                em.persist(new LocalUser("alice", "x", Role.USER, "default", 8L));
                em.flush();
            }), "usernames are unique");
            assertThrows(PersistenceException.class, () -> db.run(em -> {
                em.persist(new ApiKey("dup", "…", "a".repeat(64), "jti-2", "bob", "default", 8L, 9L));
                em.flush();
            }), "key hashes are unique");
        }
    }
}
