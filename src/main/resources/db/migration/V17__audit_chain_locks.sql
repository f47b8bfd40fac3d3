-- Audit room: one row per tenant that every append of that tenant's hash chain locks (SELECT ... FOR UPDATE) before it
-- reads where the chain ends and continues it, so writers in any number of instances take turns per tenant instead of
-- colliding on uq_audit_chain. A tenant's row is made by the first writer that appends for it.

CREATE TABLE audit_chain_lock (
    tenant_id   VARCHAR(64)   NOT NULL PRIMARY KEY
);
