package dev.switchboard.gateway;

import dev.switchboard.gateway.tasks.GatewayTasks;
import dev.switchboard.gateway.tasks.TaskRouter;

import dev.switchboard.audit.AuditConfig;
import dev.switchboard.audit.AuditLog;
import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.backend.access.BackendAccesses;
import dev.switchboard.policy.IdempotentResults;
import dev.switchboard.policy.PolicyConfiguration;
import dev.switchboard.policy.PolicyMetrics;
import dev.switchboard.policy.RateLimiter;
import dev.switchboard.policy.TenantPolicies;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The one place that assembles what serves a client session's requests, for the HTTP and the WebSocket endpoint
 * alike: the routing core (aggregated or one backend's passthrough) over the caller's pooled backend sessions, wrapped
 * by the layers every call must pass: observation (trace, log line, metrics) outermost, then audit (so it sees policy
 * refusals), then the tenant's policy; below the routing core each backend call passes its backend's breaker and
 * bulkhead and carries the trace. Around all of it, a client of an older protocol version gets results in its version.
 */
@ApplicationScoped
public class GatewayRouters {

    @Inject
    BackendAccesses backends;

    @Inject
    GatewayThreads threads;

    @Inject
    GatewayConfiguration configuration;

    @Inject
    ClientSessions clients;

    @Inject
    AuditLog audit;

    @Inject
    AuditConfig auditConfig;

    @Inject
    TenantPolicies policies;

    @Inject
    RateLimiter limiter;

    @Inject
    PolicyMetrics policyMetrics;

    @Inject
    PolicyConfiguration policyConfiguration;

    @Inject
    IdempotentResults idempotentResults;

    @Inject
    GatewayMetrics metrics;

    @Inject
    GatewayTasks tasks;

    /** {@code /mcp}: every backend the caller may use, behind one session, whose tool calls may run as tasks. */
    public McpRouter aggregated(ClientContext caller, List<GatewayBackend> backends, GatewaySession session) {
        return forClientVersion(new TaskRouter(aggregated(caller, backends, access(caller), clients.subscriptions().of(session)),
                tasks, caller), session);
    }

    /** {@code /mcp/servers/{name}}: one backend as it is, its names and URIs untouched, its tool calls may run as tasks. */
    public McpRouter passthrough(ClientContext caller, GatewayBackend backend, GatewaySession session) {
        return forClientVersion(new TaskRouter(passthrough(caller, backend, access(caller), clients.subscriptions().of(session, false)),
                tasks, caller), session);
    }

    /**
     * One request without a session (MCP 2026-07-28) at {@code /mcp} ({@code single} null) or at one backend's
     * passthrough: the same stack, no subscriptions, its backend access wrapped by {@code accessOfEra} (which
     * settles the backend's own error codes for that era).
     */
    public McpRouter stateless(ClientContext caller, List<GatewayBackend> backends, GatewayBackend single,
                               UnaryOperator<BackendAccess> accessOfEra) {
        BackendAccess access = accessOfEra.apply(access(caller));
        return single == null ? aggregated(caller, backends, access, ResourceSubscriptions.Scope.NONE)
                : passthrough(caller, single, access, ResourceSubscriptions.Scope.NONE);
    }

    private McpRouter aggregated(ClientContext caller, List<GatewayBackend> backends, BackendAccess access,
                                 ResourceSubscriptions.Scope subscriptions) {
        return observed(audited(policed(new GatewayRouter(backends, access, threads.executor(), configuration.settings(),
                subscriptions), caller, null), caller), caller, null);
    }

    private McpRouter passthrough(ClientContext caller, GatewayBackend backend, BackendAccess access,
                                  ResourceSubscriptions.Scope subscriptions) {
        return observed(audited(policed(new PassthroughRouter(backend, access, subscriptions), caller, backend.name()),
                caller), caller, backend.name());
    }

    /** Answers in the client's version: backends speak the latest, so what an older client lacks is translated last. */
    private static McpRouter forClientVersion(McpRouter router, GatewaySession session) {
        return ResourceLinksAsText.neededFor(session.protocolVersion()) ? new ResourceLinksAsText(router) : router;
    }

    private BackendAccess access(ClientContext caller) {
        return new CallerFacingBackendAccess(backends.of(caller.subject(), caller.trace()), caller.admin());
    }

    /** The tenant's policy is read here, on the request thread, from a short-lived cache. */
    private McpRouter policed(McpRouter router, ClientContext caller, String passthroughBackend) {
        return new PolicyRouter(router, caller, policies.of(caller.tenantId()), passthroughBackend,
                new PolicyRouter.Services(limiter, policyMetrics, policyConfiguration.retries(), idempotentResults));
    }

    private McpRouter audited(McpRouter router, ClientContext caller) {
        return auditConfig.isEnabled() ? new AuditedRouter(router, audit, caller) : router;
    }

    private McpRouter observed(McpRouter router, ClientContext caller, String fixedBackend) {
        return new ObservedRouter(router, caller, metrics, fixedBackend);
    }
}
