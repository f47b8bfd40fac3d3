-- Built-in demo servers (SWITCHBOARD_DEMO_SERVERS): one row per demo server ever registered in a tenant, kept when
-- an admin deletes the server, so a deleted demo server is not registered again at the next start.
CREATE TABLE demo_server_seeds (
    tenant_id VARCHAR(64) NOT NULL,
    name      VARCHAR(64) NOT NULL,
    server_id BIGINT      NOT NULL,
    seeded_at BIGINT      NOT NULL,
    PRIMARY KEY (tenant_id, name)
);
