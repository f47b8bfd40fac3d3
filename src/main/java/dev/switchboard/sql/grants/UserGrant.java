package dev.switchboard.sql.grants;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * A query-service permission granted to one local user ({@code query_user_grant}); it applies in the user's tenant and
 * goes when the user is deleted (the table's foreign key).
 */
@Entity
@Table(name = "query_user_grant")
@NamedQuery(name = UserGrant.OF_USER, query = "SELECT g FROM UserGrant g WHERE g.userId = :userId ORDER BY g.permission")
@NamedQuery(name = UserGrant.ONE, query = "SELECT g FROM UserGrant g WHERE g.userId = :userId AND g.permission = :permission")
public class UserGrant extends Grant {

    static final String OF_USER = "UserGrant.ofUser";
    static final String ONE = "UserGrant.one";

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false, length = 64)
    private String username;

    protected UserGrant() {
    }

    UserGrant(long userId, String username, String tenantId, String permission, String grantedBy, long grantedAt) {
        super(tenantId, permission, grantedBy, grantedAt);
        this.userId = userId;
        this.username = username;
    }

    public String username() {
        return username;
    }
}
