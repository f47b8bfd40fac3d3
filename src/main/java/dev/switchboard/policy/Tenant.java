package dev.switchboard.policy;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/** A tenant: its id is the value of the tokens' {@code tenant} claim (and of every row's {@code tenant_id}). */
@Entity
@Table(name = "tenant")
@NamedQuery(name = Tenant.ALL, query = "SELECT t FROM Tenant t ORDER BY t.id")
@NamedQuery(name = Tenant.COUNT, query = "SELECT COUNT(t) FROM Tenant t")
public class Tenant {

    static final String ALL = "Tenant.all";
    static final String COUNT = "Tenant.count";

    @Id
    private String id;

    @Column(nullable = false)
    private String name;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    protected Tenant() {
    }

    Tenant(String id, String name, long now) {
        this.id = id;
        this.name = name;
        this.createdAt = now;
        this.updatedAt = now;
    }

    public String id() {
        return id;
    }

    public String name() {
        return name;
    }

    public long createdAt() {
        return createdAt;
    }

    public long updatedAt() {
        return updatedAt;
    }

    void rename(String name, long now) {
        this.name = name;
        this.updatedAt = now;
    }

    void touch(long now) {
        this.updatedAt = now;
    }
}
