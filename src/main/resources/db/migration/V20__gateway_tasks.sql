-- Gateway room: tool calls the gateway runs as tasks for its clients (MCP 2025-11-25 tasks), kept in the database so
-- that any instance answers tasks/get, tasks/result, tasks/list and tasks/cancel. outcome is the call's JSON-RPC
-- result object or error object (outcome_kind says which), written once when the task ends; a task is deleted after
-- expires_at (its ttl). Times are epoch milliseconds.

CREATE TABLE gateway_tasks (
    task_id        VARCHAR(64)   NOT NULL PRIMARY KEY,
    tenant_id      VARCHAR(64)   NOT NULL,
    subject        VARCHAR(255)  NOT NULL,
    method         VARCHAR(64)   NOT NULL,
    target         VARCHAR(255)  NOT NULL,
    status         VARCHAR(16)   NOT NULL,
    status_message VARCHAR(1000),
    outcome_kind   VARCHAR(8),
    outcome        LONGTEXT,
    run_by         VARCHAR(64)   NOT NULL,
    created_at     BIGINT        NOT NULL,
    updated_at     BIGINT        NOT NULL,
    ttl_ms         BIGINT        NOT NULL,
    expires_at     BIGINT        NOT NULL
);
CREATE INDEX ix_gateway_tasks_owner ON gateway_tasks (tenant_id, subject, created_at);
CREATE INDEX ix_gateway_tasks_expiry ON gateway_tasks (expires_at);
