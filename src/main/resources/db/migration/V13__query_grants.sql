-- NL->SQL room: permissions of the query service (seed 000: table:{name}:read, schema:read, session:manage, admin:*)
-- granted by admins, per tenant, to local users and to roles (docs/nl-sql.md, "Table permissions").
-- A user's grants go with the user: deleting the user deletes them, so a later user of the same name starts with none.
-- username and tenant_id are the user's, copied for listing a tenant's grants (neither can change).
-- Times are epoch milliseconds.

CREATE TABLE query_user_grant (
    id          BIGINT AUTO_INCREMENT PRIMARY KEY,
    user_id     BIGINT       NOT NULL,
    username    VARCHAR(64)  NOT NULL,
    tenant_id   VARCHAR(64)  NOT NULL,
    permission  VARCHAR(255) NOT NULL,
    granted_by  VARCHAR(255) NOT NULL,
    granted_at  BIGINT       NOT NULL,
    CONSTRAINT uq_query_user_grant UNIQUE (user_id, permission),
    CONSTRAINT fk_query_user_grant_user FOREIGN KEY (user_id) REFERENCES app_user (id) ON DELETE CASCADE
);
CREATE INDEX ix_query_user_grant_tenant ON query_user_grant (tenant_id, username);

CREATE TABLE query_role_grant (
    id          BIGINT AUTO_INCREMENT PRIMARY KEY,
    tenant_id   VARCHAR(64)  NOT NULL,
    role        VARCHAR(16)  NOT NULL,
    permission  VARCHAR(255) NOT NULL,
    granted_by  VARCHAR(255) NOT NULL,
    granted_at  BIGINT       NOT NULL,
    CONSTRAINT uq_query_role_grant UNIQUE (tenant_id, role, permission)
);

-- A (tenant, role) whose grants an admin has set: from then on the role holds exactly its query_role_grant rows
-- there, and the configured default (query.role.<role>) no longer applies in that tenant.
CREATE TABLE query_role_override (
    id          BIGINT AUTO_INCREMENT PRIMARY KEY,
    tenant_id   VARCHAR(64)  NOT NULL,
    role        VARCHAR(16)  NOT NULL,
    set_by      VARCHAR(255) NOT NULL,
    set_at      BIGINT       NOT NULL,
    CONSTRAINT uq_query_role_override UNIQUE (tenant_id, role)
);
