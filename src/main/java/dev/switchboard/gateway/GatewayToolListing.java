package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.backend.access.BackendAccesses;
import dev.switchboard.observability.TraceScope;
import dev.switchboard.policy.TenantPolicies;
import dev.switchboard.policy.TenantPolicy;
import dev.switchboard.security.CurrentUser;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/**
 * A caller's aggregated tools read as that caller's {@code /mcp} reads them (the same backends, access, order and
 * names), with the tenant's policy beside them, so a list outside MCP (the console's) can show what clients are
 * offered and what the policy hides from them.
 */
@ApplicationScoped
public class GatewayToolListing {

    @Inject
    SharedBackends sharedBackends;

    @Inject
    BackendAccesses accesses;

    @Inject
    GatewayThreads threads;

    @Inject
    GatewayConfiguration configuration;

    @Inject
    TenantPolicies policies;

    /** The caller's backends, the tools those that answered in time listed, and the tenant's policy. */
    public record Listing(List<GatewayBackend> backends, ToolCatalog catalog, TenantPolicy policy) {

        /** Whether {@code tools/list} on {@code /mcp} offers the tool: the policy's allowlist may leave it out. */
        public boolean offered(ToolCatalog.Entry entry) {
            return policy.allowsTool(entry.name().exposed());
        }
    }

    public Listing of(CurrentUser caller) {
        List<GatewayBackend> backends = sharedBackends.of(caller);
        BackendAccess access = new CallerFacingBackendAccess(accesses.of(caller.subject(), TraceScope.currentOrNew()),
                caller.isAdmin());
        ToolCatalog catalog = ToolCatalog.fetch(backends, access, threads.executor(), configuration.settings().listTimeout());
        return new Listing(backends, catalog, policies.of(caller.tenant()));
    }
}
