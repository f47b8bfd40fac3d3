package dev.switchboard.backend.registry;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.ArrayList;
import java.util.List;

/**
 * Re-encrypts the stored server secrets that are not under the newest key and bound to their place, a page of rows
 * per transaction (a page in use elsewhere at that moment is simply done again at the next pass). Run by
 * {@link SecretRotationTimer}.
 */
@ApplicationScoped
public class SecretRotation {

    static final int PAGE = 100;

    /**
     * Where a pass got to: the last id looked at (0 when done), how many rows were rewritten, and the ids of rows
     * whose values cannot be decrypted (a retired or unknown key, a value moved there): left as they are.
     */
    public record Page(long lastId, int rewritten, List<Long> unreadable) {
    }

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    ServerSecrets secrets;

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Page next(long afterId) {
        return next(em, secrets, afterId, PAGE);
    }

    /** One page of rows with an id above {@code afterId}, in the caller's transaction. */
    public static Page next(EntityManager em, ServerSecrets secrets, long afterId, int size) {
        List<McpServer> rows = em.createQuery("SELECT s FROM McpServer s WHERE s.id > :after ORDER BY s.id", McpServer.class)
                .setParameter("after", afterId).setMaxResults(size).getResultList();
        int rewritten = 0;
        List<Long> unreadable = new ArrayList<>();
        for (McpServer row : rows) {
            try {
                if (secrets.reencrypt(row)) {
                    rewritten++;
                }
            } catch (IllegalStateException e) {
                unreadable.add(row.getId());
            }
        }
        return new Page(rows.size() < size ? 0 : rows.get(rows.size() - 1).getId(), rewritten, unreadable);
    }
}
