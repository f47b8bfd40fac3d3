package dev.switchboard.sql.grants;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * A role whose grants an admin has set in one tenant ({@code query_role_override}): there the role holds exactly its
 * {@link RoleGrant}s, no longer the configured {@code query.role.<role>}. Written by the first grant or revoke, so the
 * configured default stays a default until someone changes it, and revoking the last grant leaves the role with none.
 */
@Entity
@Table(name = "query_role_override")
@NamedQuery(name = RoleOverride.OF_TENANT, query = "SELECT o FROM RoleOverride o WHERE o.tenantId = :tenant")
public class RoleOverride {

    static final String OF_TENANT = "RoleOverride.ofTenant";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(nullable = false, length = 16)
    private String role;

    @Column(name = "set_by", nullable = false)
    private String setBy;

    @Column(name = "set_at", nullable = false)
    private long setAt;

    protected RoleOverride() {
    }

    RoleOverride(String tenantId, String role, String setBy, long setAt) {
        this.tenantId = tenantId;
        this.role = role;
        this.setBy = setBy;
        this.setAt = setAt;
    }

    public String role() {
        return role;
    }
}
