package dev.switchboard.policy;

import jakarta.json.JsonObject;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.io.StringReader;
import java.time.Duration;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * A tenant's stored policy (the governance data model's {@code policy_binding}): the lists as JSON text, the rate limit as columns so
 * it can be read (and reported on) with plain SQL.
 */
@Entity
@Table(name = "policy_binding")
public class PolicyBinding {

    @Id
    @Column(name = "tenant_id")
    private String tenantId;

    @Column(name = "tool_allowlist")
    private String toolAllowlist;

    @Column(name = "resource_backends")
    private String resourceBackends;

    @Column(name = "rate_requests")
    private Integer rateRequests;

    @Column(name = "rate_period_sec")
    private Integer ratePeriodSeconds;

    @Column(name = "rate_burst")
    private Integer rateBurst;

    @Column(name = "rate_per_subject", nullable = false)
    private boolean ratePerSubject;

    @Column(name = "tool_rules")
    private String toolRules;

    @Column(name = "allowed_networks")
    private String allowedNetworks;

    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    protected PolicyBinding() {
    }

    PolicyBinding(String tenantId) {
        this.tenantId = tenantId;
    }

    void set(TenantPolicy policy, long now) {
        JsonObject json = PolicyJson.write(policy);
        toolAllowlist = json.isNull("tools") ? null : json.get("tools").toString();
        resourceBackends = json.isNull("resourceBackends") ? null : json.get("resourceBackends").toString();
        RateLimit rate = policy.rateLimit();
        rateRequests = rate == null ? null : rate.requests();
        ratePeriodSeconds = rate == null ? null : (int) rate.period().toSeconds();
        rateBurst = rate == null ? null : rate.burst();
        ratePerSubject = rate != null && rate.perSubject();
        toolRules = json.get("toolRules").toString();
        allowedNetworks = json.get("allowedNetworks").toString();
        updatedAt = now;
    }

    TenantPolicy policy() {
        var json = JSON.createObjectBuilder();
        addJson(json, "tools", toolAllowlist);
        addJson(json, "resourceBackends", resourceBackends);
        addJson(json, "toolRules", toolRules);
        addJson(json, "allowedNetworks", allowedNetworks);
        TenantPolicy read = PolicyJson.read(json.build());
        RateLimit rate = rateRequests == null ? null
                : new RateLimit(rateRequests, Duration.ofSeconds(ratePeriodSeconds), rateBurst, ratePerSubject);
        return new TenantPolicy(read.tools(), read.resourceBackends(), rate, read.toolRules(), read.allowedNetworks());
    }

    private static void addJson(jakarta.json.JsonObjectBuilder json, String field, String text) {
        if (text != null) {
            try (var reader = JSON.createReader(new StringReader(text))) {
                json.add(field, reader.readValue());
            }
        }
    }
}
