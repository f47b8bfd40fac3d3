package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.Optional;

/** Reads and writes the signing key's row, each in a transaction of its own (the key is loaded inside any request). */
@ApplicationScoped
public class SigningKeyRows {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Optional<SigningKeyRow> find() {
        return Optional.ofNullable(em.find(SigningKeyRow.class, SigningKeyRow.CURRENT));
    }

    /** Fails when another instance stored its key first (the row's id is the primary key). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void insert(SigningKeyRow row) {
        em.persist(row);
    }

    /** Re-encrypts the key under the newest secret key, unless another instance changed it meanwhile. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void reencrypt(String was, String now) {
        em.createQuery("update SigningKeyRow k set k.privateKey = :now where k.id = :id and k.privateKey = :was")
                .setParameter("now", now).setParameter("id", SigningKeyRow.CURRENT).setParameter("was", was)
                .executeUpdate();
    }
}
