package dev.switchboard.policy;

import dev.switchboard.platform.egress.AllowedNetwork;

import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * A tenant's policy binding as the gateway enforces it (the governance data model's {@code policy_binding}).
 *
 * @param tools            the tool allowlist; null allows every tool
 * @param resourceBackends backends whose prompts and resources the tenant may use; null allows every backend
 * @param rateLimit        the tenant's token bucket; null means no limit
 * @param toolRules        retry permission and risk per tool pattern
 * @param allowedNetworks  internal hosts and networks the servers this tenant's users register may reach; unlike the
 *                         other fields, empty is the default and means none (public addresses are always reachable)
 */
public record TenantPolicy(List<ToolPattern> tools, Set<String> resourceBackends, RateLimit rateLimit,
                           List<ToolRule> toolRules, List<AllowedNetwork> allowedNetworks) {

    /** What a tenant without a binding gets: every tool and backend, no limit, no retries, no internal addresses. */
    public static final TenantPolicy UNRESTRICTED = new TenantPolicy(null, null, null, List.of(), List.of());

    public TenantPolicy {
        tools = tools == null ? null : List.copyOf(tools);
        resourceBackends = resourceBackends == null ? null : Set.copyOf(resourceBackends);
        toolRules = List.copyOf(toolRules);
        allowedNetworks = allowedNetworks == null ? List.of() : List.copyOf(allowedNetworks);
    }

    public boolean allowsTool(String exposedTool) {
        return tools == null || tools.stream().anyMatch(p -> p.matches(exposedTool));
    }

    /** Whether the tenant may list, read, subscribe to or complete the prompts and resources of this backend. */
    public boolean allowsContentOf(String backend) {
        return resourceBackends == null || (backend != null && resourceBackends.contains(backend));
    }

    /** The most specific rule naming the tool, or {@link ToolRule#NONE}. */
    public ToolRule ruleFor(String exposedTool) {
        return toolRules.stream().filter(r -> r.tool().matches(exposedTool))
                .max(Comparator.comparingInt(r -> r.tool().specificity()))
                .orElse(ToolRule.NONE);
    }
}
