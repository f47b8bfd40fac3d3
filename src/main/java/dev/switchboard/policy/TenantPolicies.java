package dev.switchboard.policy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The policy each tenant's gateway calls are held to, cached for {@code switchboard.policy.cache-ttl} so a call does
 * not cost a database read. Changes through this instance apply at once; other instances see them within the TTL.
 */
@ApplicationScoped
public class TenantPolicies {

    private record Cached(TenantPolicy policy, long loadedAtNanos) {
    }

    @Inject
    Tenants tenants;

    @Inject
    @ConfigProperty(name = "switchboard.policy.cache-ttl", defaultValue = "PT5S")
    Duration ttl;

    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /** The tenant's binding, or {@link TenantPolicy#UNRESTRICTED} when it has none. */
    public TenantPolicy of(String tenantId) {
        long now = System.nanoTime();
        Cached cached = cache.get(tenantId);
        if (cached != null && now - cached.loadedAtNanos() < ttl.toNanos()) {
            return cached.policy();
        }
        TenantPolicy policy = tenants.policy(tenantId).orElse(TenantPolicy.UNRESTRICTED);
        cache.put(tenantId, new Cached(policy, now));
        return policy;
    }

    void forget(String tenantId) {
        cache.remove(tenantId);
    }
}
