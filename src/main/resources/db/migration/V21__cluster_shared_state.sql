-- Cluster mode (docs/cluster.md): what every instance on this database must see alike. (Numbered after V20 although
-- written before it: the branch that made it merged last, and a migration numbered below one applied is never run.)

-- Security room: the built-in issuer's signing key, stored once so that a token minted by one instance is verified by
-- all. One row (id 1): the PKCS#8 PEM, encrypted with the secret key; the first start moves the key of before from
-- <data dir>/jwt-signing-key.pem into it, or generates one.
CREATE TABLE signing_key (
    id          INT          NOT NULL PRIMARY KEY,
    key_id      VARCHAR(64)  NOT NULL,
    private_key MEDIUMTEXT   NOT NULL,
    created_at  BIGINT       NOT NULL
);

-- Backend room: a server's settings version, raised by every edit. A pooled connection made from an older version is
-- dropped before its next call, on every instance: the database, not a message between instances, says what is current.
ALTER TABLE mcp_servers ADD COLUMN settings_version BIGINT NOT NULL DEFAULT 1;
