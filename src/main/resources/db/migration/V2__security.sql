-- Security room: local users of the built-in issuer and API keys (hash only).
-- Portable between H2 (MySQL mode) and MySQL/MariaDB; times are epoch milliseconds.

CREATE TABLE app_user (
    id            BIGINT AUTO_INCREMENT PRIMARY KEY,
    username      VARCHAR(64)  NOT NULL,
    password_hash VARCHAR(255) NOT NULL,
    role          VARCHAR(16)  NOT NULL,
    tenant_id     VARCHAR(64)  NOT NULL,
    created_at    BIGINT       NOT NULL,
    disabled      BOOLEAN      NOT NULL DEFAULT FALSE,
    CONSTRAINT uq_app_user_username UNIQUE (username)
);

CREATE TABLE api_key (
    id            BIGINT AUTO_INCREMENT PRIMARY KEY,
    name          VARCHAR(100) NOT NULL,
    key_prefix    VARCHAR(32)  NOT NULL,
    key_hash      VARCHAR(64)  NOT NULL,
    jti           VARCHAR(64)  NOT NULL,
    owner_subject VARCHAR(255) NOT NULL,
    tenant_id     VARCHAR(64)  NOT NULL,
    created_at    BIGINT       NOT NULL,
    expires_at    BIGINT       NOT NULL,
    last_used_at  BIGINT,
    revoked_at    BIGINT,
    CONSTRAINT uq_api_key_hash UNIQUE (key_hash)
);

CREATE INDEX ix_api_key_owner ON api_key (owner_subject, tenant_id);
