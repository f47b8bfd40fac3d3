package dev.switchboard.assistant;

import dev.switchboard.platform.OwnedRecord;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Table;

import java.util.LinkedHashSet;
import java.util.Set;

/** An assistant: a system prompt, a model and the MCP servers whose tools it may use (the MCP client system). */
@Entity
@Table(name = "assistants")
public class Assistant extends OwnedRecord {

    @Column(nullable = false)
    private String name;

    private String description;

    @Column(name = "system_prompt")
    private String systemPrompt;

    private String model;

    @Column(name = "knowledge_base_enabled", nullable = false)
    private boolean knowledgeBaseEnabled;

    /** The MCP client system's {@code assistant_mcp_servers}. */
    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "assistant_mcp_servers", joinColumns = @JoinColumn(name = "assistant_id"))
    @Column(name = "mcp_server_id")
    private Set<Long> mcpServerIds = new LinkedHashSet<>();

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getDescription() { return description; }
    public void setDescription(String description) { this.description = description; }
    public String getSystemPrompt() { return systemPrompt; }
    public void setSystemPrompt(String systemPrompt) { this.systemPrompt = systemPrompt; }
    public String getModel() { return model; }
    public void setModel(String model) { this.model = model; }
    public boolean isKnowledgeBaseEnabled() { return knowledgeBaseEnabled; }
    public void setKnowledgeBaseEnabled(boolean knowledgeBaseEnabled) { this.knowledgeBaseEnabled = knowledgeBaseEnabled; }
    public Set<Long> getMcpServerIds() { return mcpServerIds; }
    public void setMcpServerIds(Set<Long> mcpServerIds) { this.mcpServerIds = new LinkedHashSet<>(mcpServerIds); }
}
