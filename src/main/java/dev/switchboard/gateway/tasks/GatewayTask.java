package dev.switchboard.gateway.tasks;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One tool call the gateway runs as a task ({@code gateway_tasks}); see {@link GatewayTasks}. */
@Entity
@Table(name = "gateway_tasks")
public class GatewayTask {

    /** The statuses of 2025-11-25's {@code TaskStatus} the gateway uses. */
    public static final String WORKING = "working";
    public static final String COMPLETED = "completed";
    public static final String FAILED = "failed";
    public static final String CANCELLED = "cancelled";
    static final int MESSAGE_CHARS = 1000;

    @Id
    @Column(name = "task_id")
    private String taskId;
    @Column(name = "tenant_id", nullable = false)
    private String tenantId;
    @Column(nullable = false)
    private String subject;
    @Column(nullable = false)
    private String method;
    @Column(nullable = false)
    private String target;
    @Column(nullable = false)
    private String status;
    @Column(name = "status_message")
    private String statusMessage;
    @Column(name = "outcome_kind")
    private String outcomeKind;
    @Column
    private String outcome;
    @Column(name = "run_by", nullable = false)
    private String runBy;
    @Column(name = "created_at", nullable = false)
    private long createdAt;
    @Column(name = "updated_at", nullable = false)
    private long updatedAt;
    @Column(name = "ttl_ms", nullable = false)
    private long ttlMs;
    @Column(name = "expires_at", nullable = false)
    private long expiresAt;

    protected GatewayTask() {
    }

    GatewayTask(String taskId, String tenantId, String subject, String method, String target, String runBy, long now, long ttlMs) {
        this.taskId = taskId;
        this.tenantId = tenantId;
        this.subject = subject;
        this.method = method;
        this.target = target.length() <= 255 ? target : target.substring(0, 255);
        this.status = WORKING;
        this.runBy = runBy;
        this.createdAt = now;
        this.updatedAt = now;
        this.ttlMs = ttlMs;
        this.expiresAt = now + ttlMs;
    }

    /** An ended copy, for stores kept in memory by tests; the database ends a row by a conditional update. */
    void ended(String status, String message, String kind, String outcome, long now) {
        this.status = status;
        this.statusMessage = message;
        this.outcomeKind = kind;
        this.outcome = outcome;
        this.updatedAt = now;
    }

    public boolean isTerminal() {
        return !WORKING.equals(status);
    }

    public String getTaskId() {
        return taskId;
    }

    public String getTenantId() {
        return tenantId;
    }

    public String getSubject() {
        return subject;
    }

    public String getTarget() {
        return target;
    }

    public String getStatus() {
        return status;
    }

    public String getStatusMessage() {
        return statusMessage;
    }

    public String getOutcomeKind() {
        return outcomeKind;
    }

    public String getOutcome() {
        return outcome;
    }

    public long getCreatedAt() {
        return createdAt;
    }

    public long getUpdatedAt() {
        return updatedAt;
    }

    public long getTtlMs() {
        return ttlMs;
    }

    public long getExpiresAt() {
        return expiresAt;
    }
}
