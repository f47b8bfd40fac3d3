-- NL->SQL sessions (seed 000 session.*): history and context for follow-up questions, one hour after last use.
-- history is a JSON array of {query, sql, timestamp, success}; context a JSON object (last_table, preferred_limit).
-- MEDIUMTEXT (16 MB), not TEXT (64 KB): a long session's history outgrows 64 KB. Times are epoch milliseconds.

CREATE TABLE query_sessions (
    id            VARCHAR(64)  NOT NULL PRIMARY KEY,
    user_id       VARCHAR(255) NOT NULL,
    history       MEDIUMTEXT   NOT NULL,
    context       MEDIUMTEXT   NOT NULL,
    created_at    BIGINT       NOT NULL,
    last_accessed BIGINT       NOT NULL,
    expires_at    BIGINT       NOT NULL
);
CREATE INDEX ix_query_sessions_expiry ON query_sessions (expires_at);
