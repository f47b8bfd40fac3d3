-- Chat room: conversations and their messages (seed 004's message storage).
-- An assistant message keeps its tool calls inline: tool_calls is a JSON array of ToolCallRecord
-- ({id, serverId, serverName, toolName, displayName, arguments, status, response, isError}), updated in place.
-- Portable between H2 (MySQL mode) and MySQL/MariaDB; times are epoch milliseconds. MEDIUMTEXT (16 MB), not
-- TEXT (64 KB): one tool result or answer can be larger than 64 KB.

CREATE TABLE conversations (
    id           BIGINT AUTO_INCREMENT PRIMARY KEY,
    user_id      VARCHAR(255) NOT NULL,
    tenant_id    VARCHAR(64)  NOT NULL,
    assistant_id BIGINT,
    session_id   VARCHAR(128),
    title        VARCHAR(200),
    created_at   BIGINT       NOT NULL,
    updated_at   BIGINT       NOT NULL
);
CREATE INDEX ix_conversations_owner ON conversations (tenant_id, user_id, updated_at);
CREATE INDEX ix_conversations_session ON conversations (tenant_id, user_id, session_id);

CREATE TABLE chat_messages (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    conversation_id BIGINT       NOT NULL,
    role            VARCHAR(16)  NOT NULL,
    content         MEDIUMTEXT,
    tool_calls      MEDIUMTEXT,
    tool_call_id    VARCHAR(128),
    finish_reason   VARCHAR(32),
    created_at      BIGINT       NOT NULL,
    updated_at      BIGINT       NOT NULL,
    CONSTRAINT fk_chat_messages_conversation FOREIGN KEY (conversation_id) REFERENCES conversations (id) ON DELETE CASCADE
);
CREATE INDEX ix_chat_messages_conversation ON chat_messages (conversation_id, id);
