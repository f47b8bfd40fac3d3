package dev.switchboard.chat;

import dev.switchboard.platform.OwnedRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** One conversation of one user; requests with the same {@code session_id} continue it. */
@Entity
@Table(name = "conversations")
public class Conversation extends OwnedRecord {

    @Column(name = "assistant_id")
    private Long assistantId;

    @Column(name = "session_id")
    private String sessionId;

    private String title;

    public Long getAssistantId() { return assistantId; }
    public void setAssistantId(Long assistantId) { this.assistantId = assistantId; }
    public String getSessionId() { return sessionId; }
    public void setSessionId(String sessionId) { this.sessionId = sessionId; }
    public String getTitle() { return title; }
    public void setTitle(String title) { this.title = title; }
}
