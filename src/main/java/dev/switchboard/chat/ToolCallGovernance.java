package dev.switchboard.chat;

import dev.switchboard.audit.AuditRecord;
import dev.switchboard.audit.AuditTrail;
import dev.switchboard.policy.CallAdmission;
import dev.switchboard.policy.TenantPolicy;
import dev.switchboard.security.CallerIdentity;
import jakarta.json.JsonValue;

import java.util.Optional;
import java.util.function.Function;

/**
 * Holds one run's tool calls to the caller's tenant policy and reports each to the audit trail, as the gateway does
 * with its calls: the same allowlist (tools matched as {@link McpTool#policyName()}), the same rate-limit buckets
 * (chat and {@code /mcp} draw on one budget), the same audit rows ({@code tools/call}, tenant, subject, client id,
 * tool, backend, decision, trace id, input hash, outcome, duration). The policy is read at each call (from
 * {@code TenantPolicies}' short cache), so a change reaches a long run, e.g. one waiting for an approval.
 */
final class ToolCallGovernance {

    static final String ACTION = "tools/call";

    private final CallerIdentity caller;
    private final String clientId;
    private final String traceId;
    private final Function<String, TenantPolicy> policies;
    private final CallAdmission admission;
    private final AuditTrail audit;

    /**
     * @param caller   who the run acts for, taken on the request thread
     * @param clientId the token's client (see {@code CurrentUser.clientId()}); null when it names none
     * @param traceId  the request's W3C trace id
     * @param policies a tenant's policy by tenant id
     * @param audit    where events go ({@code AuditLog}, or {@link AuditTrail#OFF} when auditing is switched off)
     */
    ToolCallGovernance(CallerIdentity caller, String clientId, String traceId, Function<String, TenantPolicy> policies,
                       CallAdmission admission, AuditTrail audit) {
        this.caller = caller;
        this.clientId = clientId;
        this.traceId = traceId;
        this.policies = policies;
        this.admission = admission;
        this.audit = audit;
    }

    /** Whether the allowlist lets the tool run at all; asks nothing else and counts nothing. */
    boolean allows(McpTool tool) {
        return policies.apply(caller.tenant()).allowsTool(tool.policyName());
    }

    /**
     * The policy's verdict right before the call would run: the allowlist, then a permit from the rate limit (taken
     * only for a call that is allowed). Empty when the call may run.
     */
    Optional<CallAdmission.Refusal> admit(McpTool tool) {
        TenantPolicy policy = policies.apply(caller.tenant());
        return admission.tool(policy, caller.tenant(), tool.policyName())
                .or(() -> admission.permit(policy, caller.tenant(), caller.subject()));
    }

    /** Refuses a call before it runs when its audit event could not be written now (see {@link AuditTrail#checkWriting()}). */
    void checkAuditWriting() {
        audit.checkWriting();
    }

    /**
     * One audit event for one call; returns once it is in the database (throws {@code AuditUnavailableException}
     * when it could not be made durable: the call's result must then be withheld).
     *
     * @param input    the arguments (hashed, never stored)
     * @param decision {@code allow}, a policy refusal, or what became of a call that waited for approval
     * @param outcome  how an allowed call ended ({@code AuditOutcome}); null for a call that did not run
     */
    void record(McpTool tool, JsonValue input, String decision, String outcome, long millis) {
        audit.record(new AuditRecord(System.currentTimeMillis(), caller.tenant(), clientId, caller.subject(), ACTION,
                tool.policyName(), tool.backendName(), decision, traceId, input, outcome, millis));
    }
}
