-- Gateway room: recorded upstream sessions (seed 001 §7 gateway_session) and the backend sessions they use
-- (backend_session). An upstream session is one Mcp-Session-Id (Streamable HTTP) or one socket (WebSocket); its
-- row outlives the process, so a Streamable HTTP session still open at a restart is taken up again, and one that
-- ended answers 404 for good. Backend sessions are the caller's pooled connections, shared by the caller's upstream
-- sessions; a row says which pooled connection (server, the backend's own Mcp-Session-Id) a session used.
-- Times are epoch milliseconds.

CREATE TABLE gateway_session (
    id                  BIGINT AUTO_INCREMENT PRIMARY KEY,
    session_id          VARCHAR(64)   NOT NULL,
    tenant_id           VARCHAR(64)   NOT NULL,
    subject             VARCHAR(255)  NOT NULL,
    endpoint            VARCHAR(512)  NOT NULL,
    transport           VARCHAR(32)   NOT NULL,
    protocol_version    VARCHAR(32)   NOT NULL,
    client_name         VARCHAR(255),
    client_version      VARCHAR(255),
    client_capabilities MEDIUMTEXT    NOT NULL,
    created_at          BIGINT        NOT NULL,
    last_seen_at        BIGINT        NOT NULL,
    ended_at            BIGINT,
    end_reason          VARCHAR(32),
    CONSTRAINT uq_gateway_session UNIQUE (session_id)
);
CREATE INDEX ix_gateway_session_tenant ON gateway_session (tenant_id, id);

CREATE TABLE backend_session (
    id                 BIGINT AUTO_INCREMENT PRIMARY KEY,
    gateway_session_id BIGINT        NOT NULL,
    server_id          VARCHAR(64)   NOT NULL,
    server_name        VARCHAR(255)  NOT NULL,
    backend_session_id VARCHAR(255),
    state              VARCHAR(32)   NOT NULL,
    last_error         VARCHAR(1024),
    updated_at         BIGINT        NOT NULL,
    CONSTRAINT fk_backend_session_gateway FOREIGN KEY (gateway_session_id) REFERENCES gateway_session (id) ON DELETE CASCADE,
    CONSTRAINT uq_backend_session UNIQUE (gateway_session_id, server_id)
);
