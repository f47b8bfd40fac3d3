package dev.switchboard.gateway.record;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Optional;

/** The {@code gateway_session} and {@code backend_session} rows, one transaction per change. */
@ApplicationScoped
public class SessionRecords {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Transactional
    public void opened(RecordedSession session, List<BackendObservation> backends, long now) {
        em.persist(session);
        em.flush();
        for (BackendObservation backend : backends) {
            RecordedBackendSession row = new RecordedBackendSession(session.getId(), backend.serverId(), backend.serverName());
            row.observed(backend, now);
            em.persist(row);
        }
    }

    @Transactional
    public void seen(String sessionId, long now) {
        find(sessionId).ifPresent(s -> s.seen(now));
    }

    /** Marks the session ended (once) and records how its backend sessions stood at the end. */
    @Transactional
    public void ended(String sessionId, String reason, List<BackendObservation> backends, long now) {
        Optional<RecordedSession> session = find(sessionId);
        if (session.isEmpty()) {
            return;
        }
        session.get().ended(now, reason);
        observed(session.get().getId(), backends, now);
    }

    /**
     * Marks the session ended as idle in one conditional update: only while it is open and its last recorded use is
     * before {@code idleSince}, so a use another instance records meanwhile keeps it open.
     *
     * @return whether it ended
     */
    @Transactional
    public boolean endedIdle(String sessionId, long idleSince, List<BackendObservation> backends, long now) {
        int ended = em.createQuery("update RecordedSession s set s.endedAt = :now, s.endReason = 'idle', s.lastSeenAt = :now "
                        + "where s.sessionId = :id and s.endedAt is null and s.lastSeenAt < :idleSince")
                .setParameter("now", now).setParameter("id", sessionId).setParameter("idleSince", idleSince).executeUpdate();
        if (ended == 0) {
            return false;
        }
        find(sessionId).ifPresent(s -> observed(s.getId(), backends, now));
        return true;
    }

    private void observed(long gatewaySessionId, List<BackendObservation> backends, long now) {
        for (RecordedBackendSession row : backendsOf(gatewaySessionId)) {
            backends.stream().filter(b -> b.serverId().equals(row.getServerId())).findFirst()
                    .ifPresent(b -> row.observed(b, now));
        }
    }

    public Optional<RecordedSession> find(String sessionId) {
        return em.createQuery("select s from RecordedSession s where s.sessionId = :id", RecordedSession.class)
                .setParameter("id", sessionId).getResultStream().findFirst();
    }

    public List<RecordedBackendSession> backendsOf(long gatewaySessionId) {
        return em.createQuery("select b from RecordedBackendSession b where b.gatewaySessionId = :id order by b.serverName",
                RecordedBackendSession.class).setParameter("id", gatewaySessionId).getResultList();
    }
}
