package dev.switchboard.knowledge;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;

/**
 * One piece of an uploaded file, in order by {@code seq}: files are stored in pieces of at most {@link #MAX_BYTES} so
 * that no statement nears the database's packet limit (V16's comment).
 */
@Entity
@Table(name = "knowledge_document_chunks")
public class DocumentChunk {

    static final int MAX_BYTES = 1024 * 1024;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "document_id", nullable = false)
    private long documentId;

    @Column(nullable = false)
    private int seq;

    @Lob
    @Column(nullable = false)
    private byte[] chunk;

    protected DocumentChunk() {
    }

    DocumentChunk(long documentId, int seq, byte[] chunk) {
        this.documentId = documentId;
        this.seq = seq;
        this.chunk = chunk;
    }

    public long getDocumentId() { return documentId; }
    public int getSeq() { return seq; }
    public byte[] getChunk() { return chunk; }
}
