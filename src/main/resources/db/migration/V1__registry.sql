-- MCP server registry and assistants (seed 004: mcp_servers, assistant_mcp_servers).
-- Portable between H2 (MySQL mode) and MySQL/MariaDB: times are epoch milliseconds,
-- JSON and long text columns are MEDIUMTEXT (TEXT holds only 64 KB on MySQL), owners are token subjects (strings).

CREATE TABLE mcp_servers (
    id                 BIGINT AUTO_INCREMENT PRIMARY KEY,
    user_id            VARCHAR(255)  NOT NULL,
    tenant_id          VARCHAR(64)   NOT NULL,
    scope              VARCHAR(16)   NOT NULL,
    name               VARCHAR(64)   NOT NULL,
    type               VARCHAR(20)   NOT NULL,
    is_active          BOOLEAN       NOT NULL,
    base_url           VARCHAR(2048),
    headers            MEDIUMTEXT,
    timeout            INT           NOT NULL,
    command            VARCHAR(1024),
    args               MEDIUMTEXT,
    env                MEDIUMTEXT,
    disabled_tools     MEDIUMTEXT,
    auto_approve_tools MEDIUMTEXT,
    created_at         BIGINT        NOT NULL,
    updated_at         BIGINT        NOT NULL,
    CONSTRAINT uq_mcp_servers_owner_name UNIQUE (tenant_id, user_id, name)
);
CREATE INDEX ix_mcp_servers_tenant_scope ON mcp_servers (tenant_id, scope);

CREATE TABLE assistants (
    id                     BIGINT AUTO_INCREMENT PRIMARY KEY,
    user_id                VARCHAR(255)  NOT NULL,
    tenant_id              VARCHAR(64)   NOT NULL,
    name                   VARCHAR(100)  NOT NULL,
    description            VARCHAR(1000),
    system_prompt          MEDIUMTEXT,
    model                  VARCHAR(200),
    knowledge_base_enabled BOOLEAN       NOT NULL,
    created_at             BIGINT        NOT NULL,
    updated_at             BIGINT        NOT NULL
);
CREATE INDEX ix_assistants_owner ON assistants (tenant_id, user_id);

CREATE TABLE assistant_mcp_servers (
    assistant_id  BIGINT NOT NULL,
    mcp_server_id BIGINT NOT NULL,
    PRIMARY KEY (assistant_id, mcp_server_id),
    CONSTRAINT fk_ams_assistant FOREIGN KEY (assistant_id) REFERENCES assistants (id) ON DELETE CASCADE,
    CONSTRAINT fk_ams_server FOREIGN KEY (mcp_server_id) REFERENCES mcp_servers (id) ON DELETE CASCADE
);

-- Resolves an LLM-facing function name (mcp__{server}__{tool}, sanitised, maybe cut and hashed)
-- back to the server and the tool's original name. Every name ever issued stays, so a name from an
-- older conversation still resolves after the server was renamed.
CREATE TABLE tool_alias (
    id           BIGINT AUTO_INCREMENT PRIMARY KEY,
    server_id    BIGINT        NOT NULL,
    tool_name    VARCHAR(512)  NOT NULL,
    display_name VARCHAR(64)   NOT NULL,
    created_at   BIGINT        NOT NULL,
    CONSTRAINT uq_tool_alias UNIQUE (server_id, tool_name, display_name),
    CONSTRAINT fk_tool_alias_server FOREIGN KEY (server_id) REFERENCES mcp_servers (id) ON DELETE CASCADE
);
CREATE INDEX ix_tool_alias_display ON tool_alias (display_name);
