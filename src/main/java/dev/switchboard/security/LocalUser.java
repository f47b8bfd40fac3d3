package dev.switchboard.security;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/** A user of the built-in issuer (embedded mode); external issuers need no rows here. */
@Entity
@Table(name = "app_user")
@NamedQuery(name = LocalUser.BY_USERNAME, query = "SELECT u FROM LocalUser u WHERE u.username = :username")
@NamedQuery(name = LocalUser.ALL, query = "SELECT u FROM LocalUser u ORDER BY u.username")
@NamedQuery(name = LocalUser.COUNT_ACTIVE_ADMINS,
        query = "SELECT COUNT(u) FROM LocalUser u WHERE u.role = 'admin' AND u.disabled = false")
public class LocalUser {

    static final String BY_USERNAME = "LocalUser.byUsername";
    static final String ALL = "LocalUser.all";
    static final String COUNT_ACTIVE_ADMINS = "LocalUser.countActiveAdmins";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, unique = true, length = 64)
    private String username;

    @Column(name = "password_hash", nullable = false)
    private String passwordHash;

    @Column(nullable = false, length = 16)
    private String role;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    @Column(nullable = false)
    private boolean disabled;

    protected LocalUser() {
    }

    LocalUser(String username, String passwordHash, Role role, String tenantId, long createdAt) {
        this.username = username;
        this.passwordHash = passwordHash;
        this.role = role.claim();
        this.tenantId = tenantId;
        this.createdAt = createdAt;
    }

    public Long id() {
        return id;
    }

    public String username() {
        return username;
    }

    String passwordHash() {
        return passwordHash;
    }

    void replacePasswordHash(String hash) {
        this.passwordHash = hash;
    }

    public Role role() {
        return Role.of(role);
    }

    public String tenantId() {
        return tenantId;
    }

    public long createdAt() {
        return createdAt;
    }

    public boolean disabled() {
        return disabled;
    }

    TokenSubject tokenSubject() {
        return new TokenSubject(username, role().groups(), tenantId);
    }
}
