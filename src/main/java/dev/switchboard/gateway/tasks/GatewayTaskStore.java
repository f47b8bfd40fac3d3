package dev.switchboard.gateway.tasks;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Optional;

/**
 * The {@code gateway_tasks} rows, one transaction per change. A task ends once: every end is a conditional update of a
 * row still {@code working}, so a cancellation and the call's own end, on any instance, cannot both win.
 */
@ApplicationScoped
public class GatewayTaskStore {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Transactional
    public void create(GatewayTask task) {
        em.persist(task);
    }

    /** The caller's own task; another caller's, like an unknown one, is not found. */
    @Transactional
    public Optional<GatewayTask> find(String taskId, String tenantId, String subject) {
        return em.createQuery("select t from GatewayTask t where t.taskId = :id and t.tenantId = :tenant and t.subject = :subject",
                        GatewayTask.class).setParameter("id", taskId).setParameter("tenant", tenantId).setParameter("subject", subject)
                .getResultStream().findFirst();
    }

    /** Ends a working task; false when it had ended already (cancelled meanwhile). */
    @Transactional
    public boolean finish(String taskId, String status, String message, String outcomeKind, String outcome, long now) {
        return em.createQuery("update GatewayTask t set t.status = :status, t.statusMessage = :message, t.outcomeKind = :kind, "
                        + "t.outcome = :outcome, t.updatedAt = :now where t.taskId = :id and t.status = 'working'")
                .setParameter("status", status).setParameter("message", clip(message)).setParameter("kind", outcomeKind)
                .setParameter("outcome", outcome).setParameter("now", now).setParameter("id", taskId).executeUpdate() == 1;
    }

    /** Cancels the caller's working task; false when it is not the caller's, unknown, or ended already. */
    @Transactional
    public boolean cancel(String taskId, String tenantId, String subject, String message, long now) {
        return em.createQuery("update GatewayTask t set t.status = 'cancelled', t.statusMessage = :message, t.updatedAt = :now "
                        + "where t.taskId = :id and t.tenantId = :tenant and t.subject = :subject and t.status = 'working'")
                .setParameter("message", clip(message)).setParameter("now", now).setParameter("id", taskId)
                .setParameter("tenant", tenantId).setParameter("subject", subject).executeUpdate() == 1;
    }

    /** The caller's tasks, newest first, after the cursor's task (its creation time and id). */
    @Transactional
    public List<GatewayTask> list(String tenantId, String subject, TaskCursor after, int limit) {
        String paged = after == null ? "" : " and (t.createdAt < :at or (t.createdAt = :at and t.taskId < :id))";
        var query = em.createQuery("select t from GatewayTask t where t.tenantId = :tenant and t.subject = :subject" + paged
                + " order by t.createdAt desc, t.taskId desc", GatewayTask.class)
                .setParameter("tenant", tenantId).setParameter("subject", subject).setMaxResults(limit);
        if (after != null) {
            query.setParameter("at", after.createdAt()).setParameter("id", after.taskId());
        }
        return query.getResultList();
    }

    /** Deletes the tasks past their time to live; returns how many. */
    @Transactional
    public int purgeExpired(long now) {
        return em.createQuery("delete from GatewayTask t where t.expiresAt < :now").setParameter("now", now).executeUpdate();
    }

    private static String clip(String message) {
        return message == null || message.length() <= GatewayTask.MESSAGE_CHARS ? message : message.substring(0, GatewayTask.MESSAGE_CHARS);
    }
}
