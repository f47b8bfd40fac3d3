package dev.switchboard.sql.grants;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/** A query-service permission granted to a role in one tenant ({@code query_role_grant}). */
@Entity
@Table(name = "query_role_grant")
@NamedQuery(name = RoleGrant.OF_TENANT, query = "SELECT g FROM RoleGrant g WHERE g.tenantId = :tenant ORDER BY g.role, g.permission")
@NamedQuery(name = RoleGrant.ONE, query = "SELECT g FROM RoleGrant g WHERE g.tenantId = :tenant AND g.role = :role "
        + "AND g.permission = :permission")
public class RoleGrant extends Grant {

    static final String OF_TENANT = "RoleGrant.ofTenant";
    static final String ONE = "RoleGrant.one";

    @Column(nullable = false, length = 16)
    private String role;

    protected RoleGrant() {
    }

    RoleGrant(String tenantId, String role, String permission, String grantedBy, long grantedAt) {
        super(tenantId, permission, grantedBy, grantedAt);
        this.role = role;
    }

    public String role() {
        return role;
    }
}
