package dev.switchboard.security;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/** An issued API key: only its SHA-256 is kept, never the key itself. */
@Entity
@Table(name = "api_key")
@NamedQuery(name = ApiKey.BY_HASH, query = "SELECT k FROM ApiKey k WHERE k.keyHash = :hash")
@NamedQuery(name = ApiKey.BY_OWNER, query = "SELECT k FROM ApiKey k WHERE k.ownerSubject = :owner"
        + " AND k.tenantId = :tenant ORDER BY k.createdAt DESC, k.id DESC")
@NamedQuery(name = ApiKey.REVOKE_ALL_OF, query = "UPDATE ApiKey k SET k.revokedAt = :now"
        + " WHERE k.ownerSubject = :owner AND k.revokedAt IS NULL")
public class ApiKey {

    static final String BY_HASH = "ApiKey.byHash";
    static final String BY_OWNER = "ApiKey.byOwner";
    static final String REVOKE_ALL_OF = "ApiKey.revokeAllOf";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, length = 100)
    private String name;

    @Column(name = "key_prefix", nullable = false, length = 32)
    private String keyPrefix;

    @Column(name = "key_hash", nullable = false, unique = true, length = 64)
    private String keyHash;

    @Column(nullable = false, length = 64)
    private String jti;

    @Column(name = "owner_subject", nullable = false)
    private String ownerSubject;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    @Column(name = "expires_at", nullable = false)
    private long expiresAt;

    @Column(name = "last_used_at")
    private Long lastUsedAt;

    @Column(name = "revoked_at")
    private Long revokedAt;

    protected ApiKey() {
    }

    ApiKey(String name, String keyPrefix, String keyHash, String jti, String ownerSubject, String tenantId,
           long createdAt, long expiresAt) {
        this.name = name;
        this.keyPrefix = keyPrefix;
        this.keyHash = keyHash;
        this.jti = jti;
        this.ownerSubject = ownerSubject;
        this.tenantId = tenantId;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
    }

    public Long id() {
        return id;
    }

    public String name() {
        return name;
    }

    public String keyPrefix() {
        return keyPrefix;
    }

    public String ownerSubject() {
        return ownerSubject;
    }

    public String tenantId() {
        return tenantId;
    }

    public long createdAt() {
        return createdAt;
    }

    public long expiresAt() {
        return expiresAt;
    }

    public Long lastUsedAt() {
        return lastUsedAt;
    }

    public Long revokedAt() {
        return revokedAt;
    }

    boolean isRevoked() {
        return revokedAt != null;
    }

    void markUsed(long now) {
        lastUsedAt = now;
    }

    void revoke(long now) {
        revokedAt = now;
    }
}
