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
        for (RecordedBackendSession row : backendsOf(session.get().getId())) {
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
