package dev.switchboard.policy;

import dev.switchboard.platform.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Optional;

/** Tenants and their policy bindings in the database; every change drops the gateway's cached policy at once. */
@ApplicationScoped
@Transactional
public class Tenants {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    TenantPolicies policies;

    public record Page(List<Tenant> tenants, long total) {
    }

    public Page page(int offset, int limit) {
        List<Tenant> tenants = em.createNamedQuery(Tenant.ALL, Tenant.class).setFirstResult(offset).setMaxResults(limit)
                .getResultList();
        return new Page(tenants, em.createNamedQuery(Tenant.COUNT, Long.class).getSingleResult());
    }

    public Optional<Tenant> find(String id) {
        return Optional.ofNullable(em.find(Tenant.class, id));
    }

    /** The stored binding, or empty when the tenant has none (or does not exist). */
    public Optional<TenantPolicy> policy(String tenantId) {
        return Optional.ofNullable(em.find(PolicyBinding.class, tenantId)).map(PolicyBinding::policy);
    }

    public Tenant create(String id, String name, TenantPolicy policy) {
        if (em.find(Tenant.class, id) != null) {
            throw ApiException.conflict("tenant_exists", "Tenant " + id + " already exists");
        }
        long now = System.currentTimeMillis();
        Tenant tenant = new Tenant(id, name, now);
        em.persist(tenant);
        // the binding has no mapped relationship, so EclipseLink would not order its insert after the tenant's
        em.flush();
        if (policy != null) {
            PolicyBinding binding = new PolicyBinding(id);
            binding.set(policy, now);
            em.persist(binding);
        }
        em.flush();
        policies.forget(id);
        return tenant;
    }

    public Tenant rename(String id, String name) {
        Tenant tenant = existing(id);
        tenant.rename(name, System.currentTimeMillis());
        return tenant;
    }

    /** Replaces the tenant's binding; null removes it (the tenant is unrestricted again). */
    public Tenant bind(String id, TenantPolicy policy) {
        Tenant tenant = existing(id);
        long now = System.currentTimeMillis();
        PolicyBinding binding = em.find(PolicyBinding.class, id);
        if (policy == null) {
            if (binding != null) {
                em.remove(binding);
            }
        } else if (binding == null) {
            binding = new PolicyBinding(id);
            binding.set(policy, now);
            em.persist(binding);
        } else {
            binding.set(policy, now);
        }
        tenant.touch(now);
        em.flush();
        policies.forget(id);
        return tenant;
    }

    /**
     * Deleting a tenant would lift its policy from whoever still acts in it, so a tenant that still has users or MCP
     * servers cannot be deleted.
     */
    public void delete(String id) {
        Tenant tenant = existing(id);
        long users = count("SELECT COUNT(*) FROM app_user WHERE tenant_id = ?1", id);
        long servers = count("SELECT COUNT(*) FROM mcp_servers WHERE tenant_id = ?1", id);
        if (users > 0 || servers > 0) {
            throw ApiException.conflict("tenant_in_use", "Tenant " + id + " still has " + users + " user(s) and "
                    + servers + " MCP server(s); delete them first, its policy applies to them");
        }
        PolicyBinding binding = em.find(PolicyBinding.class, id);
        if (binding != null) {
            em.remove(binding);
            em.flush();
        }
        em.remove(tenant);
        em.flush();
        policies.forget(id);
    }

    private Tenant existing(String id) {
        return find(id).orElseThrow(() -> ApiException.notFound("No tenant " + id));
    }

    private long count(String sql, String id) {
        return ((Number) em.createNativeQuery(sql).setParameter(1, id).getSingleResult()).longValue();
    }
}
