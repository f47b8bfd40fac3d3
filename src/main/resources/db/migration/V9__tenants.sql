-- Policy room: tenants and their policy binding (seed 001 §7: allowlist + rate limit), plus the per-tool rules
-- that decide retries (seed 001 §6.2). A tenant without a policy_binding row is unrestricted (README: Governance).
-- JSON lists are MEDIUMTEXT; NULL means "no restriction", an empty list "nothing".

CREATE TABLE tenant (
    id          VARCHAR(64)  PRIMARY KEY,
    name        VARCHAR(255) NOT NULL,
    created_at  BIGINT       NOT NULL,
    updated_at  BIGINT       NOT NULL
);

CREATE TABLE policy_binding (
    tenant_id          VARCHAR(64) PRIMARY KEY,
    tool_allowlist     MEDIUMTEXT,
    resource_backends  MEDIUMTEXT,
    rate_requests      INT,
    rate_period_sec    INT,
    rate_burst         INT,
    rate_per_subject   BOOLEAN     NOT NULL DEFAULT FALSE,
    tool_rules         MEDIUMTEXT,
    updated_at         BIGINT      NOT NULL,
    CONSTRAINT fk_policy_binding_tenant FOREIGN KEY (tenant_id) REFERENCES tenant (id) ON DELETE CASCADE
);
