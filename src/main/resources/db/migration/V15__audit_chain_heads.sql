-- Audit room: where each tenant's hash chain ends. An append locks its tenant's row (SELECT ... FOR UPDATE), continues
-- the chain from it and moves it in the same transaction, so writers in any number of instances take turns per tenant
-- instead of colliding on uq_audit_chain. A tenant's row is made by the first writer that appends for it, starting
-- where the tenant's events end (so chains written before this migration continue).

CREATE TABLE audit_chain_head (
    tenant_id   VARCHAR(64)   NOT NULL PRIMARY KEY,
    chain_seq   BIGINT        NOT NULL,
    row_hash    CHAR(64)      NOT NULL
);
