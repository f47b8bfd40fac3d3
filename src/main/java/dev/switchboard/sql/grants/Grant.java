package dev.switchboard.sql.grants;

import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/** What every grant records: the tenant it applies in, the permission, who granted it and when. */
@MappedSuperclass
public abstract class Grant {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(nullable = false)
    private String permission;

    @Column(name = "granted_by", nullable = false)
    private String grantedBy;

    @Column(name = "granted_at", nullable = false)
    private long grantedAt;

    protected Grant() {
    }

    Grant(String tenantId, String permission, String grantedBy, long grantedAt) {
        this.tenantId = tenantId;
        this.permission = permission;
        this.grantedBy = grantedBy;
        this.grantedAt = grantedAt;
    }

    public String tenantId() {
        return tenantId;
    }

    public String permission() {
        return permission;
    }

    public String grantedBy() {
        return grantedBy;
    }

    public long grantedAt() {
        return grantedAt;
    }
}
