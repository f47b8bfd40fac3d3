package dev.switchboard.knowledge;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;

/** The text extracted from a {@link KnowledgeDocument}: what every instance indexes, without extracting again. */
@Entity
@Table(name = "knowledge_document_texts")
public class DocumentText {

    @Id
    @Column(name = "document_id")
    private Long documentId;

    @Lob
    @Column(nullable = false)
    private String content;

    protected DocumentText() {
    }

    DocumentText(long documentId, String content) {
        this.documentId = documentId;
        this.content = content;
    }

    public Long getDocumentId() { return documentId; }
    public String getContent() { return content; }
    public void setContent(String content) { this.content = content; }
}
