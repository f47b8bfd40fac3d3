package dev.switchboard.backend.tools;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One persisted display name of one tool of one server; see {@link ToolNames}. */
@Entity
@Table(name = "tool_alias")
public class ToolAlias {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "server_id", nullable = false)
    private long serverId;

    @Column(name = "tool_name", nullable = false)
    private String toolName;

    @Column(name = "display_name", nullable = false)
    private String displayName;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    protected ToolAlias() {
    }

    public ToolAlias(long serverId, String toolName, String displayName, long createdAt) {
        this.serverId = serverId;
        this.toolName = toolName;
        this.displayName = displayName;
        this.createdAt = createdAt;
    }

    public Long getId() { return id; }
    public long getServerId() { return serverId; }
    public String getToolName() { return toolName; }
    public String getDisplayName() { return displayName; }
    public long getCreatedAt() { return createdAt; }
}
