-- Audit room: one row per audited call or policy decision (seed 001 §6.3), chained per tenant.
-- The input itself is never stored, only its HMAC (input_hash) and the secret version (key_version).

CREATE TABLE audit_event (
    id          BIGINT AUTO_INCREMENT PRIMARY KEY,
    ts          BIGINT        NOT NULL,
    tenant_id   VARCHAR(64)   NOT NULL,
    client_id   VARCHAR(255),
    subject     VARCHAR(255),
    action      VARCHAR(64)   NOT NULL,
    tool        VARCHAR(512),
    backend_id  VARCHAR(255),
    decision    VARCHAR(32)   NOT NULL,
    trace_id    VARCHAR(64),
    input_hash  CHAR(64),
    key_version INT,
    outcome     VARCHAR(64),
    duration_ms BIGINT,
    chain_seq   BIGINT        NOT NULL,
    prev_hash   CHAR(64)      NOT NULL,
    row_hash    CHAR(64)      NOT NULL,
    CONSTRAINT uq_audit_chain UNIQUE (tenant_id, chain_seq)
);
CREATE INDEX ix_audit_tenant_ts ON audit_event (tenant_id, ts);
CREATE INDEX ix_audit_input_hash ON audit_event (input_hash);
