package dev.switchboard.sql.grants;

import dev.switchboard.sql.auth.StoredGrants;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stored grants of each (tenant, caller), kept for {@code query.permissions.cache-ttl} so a query, tool call or
 * dialect request does not cost database reads. A change through this instance applies at once ({@link #forget});
 * other instances of a cluster see it within the TTL.
 */
@ApplicationScoped
public class GrantCache implements StoredGrants.Source {

    /** Callers are many in a big tenant; past this many entries the cache starts over rather than grow. */
    private static final int MAX_ENTRIES = 10_000;

    private record Key(String tenant, String subject) {
    }

    private record Cached(StoredGrants grants, long loadedAtNanos) {
    }

    @Inject
    GrantStore store;

    @Inject
    @ConfigProperty(name = "query.permissions.cache-ttl", defaultValue = "PT5S")
    Duration ttl;

    private final Map<Key, Cached> cache = new ConcurrentHashMap<>();

    @Override
    public StoredGrants of(String tenant, String subject) {
        Key key = new Key(tenant, subject == null ? "" : subject);
        long now = System.nanoTime();
        Cached cached = cache.get(key);
        if (cached != null && now - cached.loadedAtNanos() < ttl.toNanos()) {
            return cached.grants();
        }
        StoredGrants grants = store.load(tenant, subject);
        if (cache.size() >= MAX_ENTRIES) {
            cache.clear();
        }
        cache.put(key, new Cached(grants, now));
        return grants;
    }

    /** After a change to the tenant's grants: its callers' next requests read them afresh. */
    public void forget(String tenant) {
        cache.keySet().removeIf(key -> key.tenant().equals(tenant));
    }
}
