package dev.switchboard.policy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import dev.switchboard.platform.egress.AddressGuard;
import dev.switchboard.platform.egress.AllowedNetwork;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The policy each tenant's gateway calls are held to, cached for {@code switchboard.policy.cache-ttl} so a call does
 * not cost a database read. Changes through this instance apply at once; other instances see them within the TTL.
 */
@ApplicationScoped
public class TenantPolicies {

    private static final Logger LOG = Logger.getLogger(TenantPolicies.class.getName());

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

    /**
     * Where the servers the tenant's users registered may connect to: public addresses, the policy's
     * {@code allowedNetworks} and those of {@code switchboard.tenant.<id>.allowed-networks} (comma-separated, for
     * deployments that fix them at start; an entry that does not parse is left out and logged).
     */
    public AddressGuard userServerGuard(String tenantId) {
        List<AllowedNetwork> allowed = new ArrayList<>(of(tenantId).allowedNetworks());
        for (String entry : ConfigProvider.getConfig().getOptionalValues("switchboard.tenant." + tenantId
                + ".allowed-networks", String.class).orElse(List.of())) {
            AllowedNetwork.parse(entry).ifPresentOrElse(allowed::add, () -> LOG.warning(() -> "switchboard.tenant."
                    + tenantId + ".allowed-networks: '" + entry + "' is neither a network, an address nor a host name; ignored"));
        }
        return AddressGuard.denyInternal(allowed);
    }

    void forget(String tenantId) {
        cache.remove(tenantId);
    }
}
