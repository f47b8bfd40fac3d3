-- Knowledge room: the documents of each tenant's knowledge base, kept in the database so that every instance of a
-- cluster reads the same ones. A document's name is unique in its tenant; revision counts its replacements, and an
-- instance rebuilds a tenant's search index when the (id, revision) pairs it indexed differ from the table's.
-- The uploaded file is stored in chunks of at most 1 MiB (MEDIUMBLOB), so that no statement comes near MySQL's and
-- MariaDB's max_allowed_packet (16 MiB by default on MariaDB) whatever the upload limit; the extracted text, what is
-- indexed, is stored once beside it. Times are epoch milliseconds.

CREATE TABLE knowledge_documents (
    id          BIGINT AUTO_INCREMENT PRIMARY KEY,
    tenant_id   VARCHAR(64)  NOT NULL,
    name        VARCHAR(255) NOT NULL,
    media_type  VARCHAR(255) NOT NULL,
    size_bytes  BIGINT       NOT NULL,
    sha256      CHAR(64)     NOT NULL,
    text_chars  INT          NOT NULL,
    revision    INT          NOT NULL,
    created_by  VARCHAR(255) NOT NULL,
    created_at  BIGINT       NOT NULL,
    updated_by  VARCHAR(255) NOT NULL,
    updated_at  BIGINT       NOT NULL,
    CONSTRAINT uq_knowledge_documents_name UNIQUE (tenant_id, name)
);
CREATE INDEX ix_knowledge_documents_tenant ON knowledge_documents (tenant_id, id);

CREATE TABLE knowledge_document_texts (
    document_id BIGINT   NOT NULL PRIMARY KEY,
    content     LONGTEXT NOT NULL,
    CONSTRAINT fk_knowledge_document_texts FOREIGN KEY (document_id) REFERENCES knowledge_documents (id) ON DELETE CASCADE
);

CREATE TABLE knowledge_document_chunks (
    id          BIGINT AUTO_INCREMENT PRIMARY KEY,
    document_id BIGINT     NOT NULL,
    seq         INT        NOT NULL,
    chunk       MEDIUMBLOB NOT NULL,
    CONSTRAINT fk_knowledge_document_chunks FOREIGN KEY (document_id) REFERENCES knowledge_documents (id) ON DELETE CASCADE,
    CONSTRAINT uq_knowledge_document_chunks UNIQUE (document_id, seq)
);
