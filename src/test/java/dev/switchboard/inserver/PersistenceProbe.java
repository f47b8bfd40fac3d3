package dev.switchboard.inserver;

import dev.switchboard.security.LocalUsers;
import dev.switchboard.security.Role;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.metamodel.EntityType;
import jakarta.transaction.Transactional;

import java.util.Map;
import java.util.TreeMap;

/** Deployed with the in-server tests only: reaches the application's persistence unit the way its own beans do. */
@ApplicationScoped
public class PersistenceProbe {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    LocalUsers users;

    /** Runs a query over every mapped entity: a mapping that names a missing table or column fails here. */
    public Map<String, Long> rowsOfEveryEntity() {
        Map<String, Long> rows = new TreeMap<>();
        for (EntityType<?> entity : em.getMetamodel().getEntities()) {
            rows.put(entity.getName(), em.createQuery("select count(e) from " + entity.getName() + " e", Long.class)
                    .getSingleResult());
        }
        return rows;
    }

    /** Creates a user through the application's own service, sees it, then fails: the caller checks it is gone. */
    @Transactional
    public void createUserThenFail(String username) {
        users.create(username, "not-a-real-hash", Role.USER, "default").orElseThrow();
        if (users.find(username).isEmpty()) {
            throw new AssertionError("the user is visible inside its own transaction");
        }
        throw new IllegalStateException("failed after the write");
    }
}
