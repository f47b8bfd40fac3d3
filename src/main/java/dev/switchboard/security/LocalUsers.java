package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The app_user table. Usernames are stored lower case: MySQL compares them case-insensitively and H2 does
 * not, so normalising keeps both databases in agreement. Deleting a user also revokes their API keys.
 */
@ApplicationScoped
@Transactional
public class LocalUsers {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    ApiKeys apiKeys;

    static String normalize(String username) {
        return username.toLowerCase(Locale.ROOT);
    }

    public Optional<LocalUser> find(String username) {
        return em.createNamedQuery(LocalUser.BY_USERNAME, LocalUser.class)
                .setParameter("username", normalize(username))
                .getResultStream().findFirst();
    }

    /** True while the user exists and is not disabled. */
    public boolean isActive(String username) {
        return username != null && find(username).filter(user -> !user.disabled()).isPresent();
    }

    /** After a sign-in with the right password: the same password, hashed at today's cost. */
    void replacePasswordHash(String username, String passwordHash) {
        find(username).ifPresent(user -> user.replacePasswordHash(passwordHash));
    }

    public List<LocalUser> all() {
        return em.createNamedQuery(LocalUser.ALL, LocalUser.class).getResultList();
    }

    public boolean hasActiveAdmin() {
        return em.createNamedQuery(LocalUser.COUNT_ACTIVE_ADMINS, Long.class).getSingleResult() > 0;
    }

    /** @return empty when the username is taken */
    public Optional<LocalUser> create(String username, String passwordHash, Role role, String tenant) {
        if (find(username).isPresent()) {
            return Optional.empty();
        }
        LocalUser user = new LocalUser(normalize(username), passwordHash, role, tenant, System.currentTimeMillis());
        em.persist(user);
        return Optional.of(user);
    }

    public DeleteOutcome delete(String username) {
        Optional<LocalUser> user = find(username);
        if (user.isEmpty()) {
            return DeleteOutcome.NOT_FOUND;
        }
        LocalUser found = user.get();
        if (found.role() == Role.ADMIN && !found.disabled()
                && em.createNamedQuery(LocalUser.COUNT_ACTIVE_ADMINS, Long.class).getSingleResult() <= 1) {
            return DeleteOutcome.LAST_ADMIN;
        }
        em.remove(found);
        apiKeys.revokeAllOf(found.username());
        return DeleteOutcome.DELETED;
    }

    public enum DeleteOutcome { DELETED, NOT_FOUND, LAST_ADMIN }
}
