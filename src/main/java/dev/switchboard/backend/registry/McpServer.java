package dev.switchboard.backend.registry;

import dev.switchboard.platform.OwnedRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import java.util.Map;

/**
 * One registered MCP server (the MCP client system's {@code mcp_servers}). JSON-valued columns are kept as text;
 * {@link McpServerJson} converts them. Header and env values are stored encrypted.
 */
@Entity
@Table(name = "mcp_servers")
public class McpServer extends OwnedRecord {

    public enum Scope {
        /** Visible to its owner only. */
        USER,
        /** Visible to everyone in the tenant, served by the gateway; admins only. */
        SHARED
    }

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private Scope scope = Scope.USER;

    @Column(nullable = false)
    private String name;

    @Convert(converter = TransportKindConverter.class)
    @Column(nullable = false)
    private TransportKind type;

    @Column(name = "is_active", nullable = false)
    private boolean active = true;

    @Column(name = "base_url")
    private String baseUrl;

    @Column(name = "headers")
    private String headersJson;

    @Column(name = "timeout", nullable = false)
    private int timeoutSeconds;

    private String command;

    @Column(name = "args")
    private String argsJson;

    @Column(name = "env")
    private String envJson;

    @Column(name = "disabled_tools")
    private String disabledToolsJson;

    @Column(name = "auto_approve_tools")
    private String autoApproveToolsJson;

    /** Raised by every edit: connections made from an older version are dropped on every instance. */
    @Column(name = "settings_version", nullable = false)
    private long settingsVersion = 1;

    public Scope getScope() { return scope; }
    public void setScope(Scope scope) { this.scope = scope; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public TransportKind getType() { return type; }
    public void setType(TransportKind type) { this.type = type; }
    public boolean isActive() { return active; }
    public void setActive(boolean active) { this.active = active; }
    public String getBaseUrl() { return baseUrl; }
    public void setBaseUrl(String baseUrl) { this.baseUrl = baseUrl; }
    /**
     * Header and env values set by a create or an update, in plain text until {@link ServerSecrets#seal} encrypts
     * them into the columns: encryption binds each value to the row's id, which a new row has only once inserted.
     */
    @Transient
    private Map<String, String> stagedHeaders;
    @Transient
    private Map<String, String> stagedEnv;

    public String getHeadersJson() { return headersJson; }
    public void setHeadersJson(String headersJson) { this.headersJson = headersJson; }
    public int getTimeoutSeconds() { return timeoutSeconds; }
    public void setTimeoutSeconds(int timeoutSeconds) { this.timeoutSeconds = timeoutSeconds; }
    public String getCommand() { return command; }
    public void setCommand(String command) { this.command = command; }
    public String getArgsJson() { return argsJson; }
    public void setArgsJson(String argsJson) { this.argsJson = argsJson; }
    public String getEnvJson() { return envJson; }
    public void setEnvJson(String envJson) { this.envJson = envJson; }
    public void stageHeaders(Map<String, String> plain) { this.stagedHeaders = plain; }
    public void stageEnv(Map<String, String> plain) { this.stagedEnv = plain; }
    Map<String, String> stagedHeaders() { return stagedHeaders; }
    Map<String, String> stagedEnv() { return stagedEnv; }
    public String getDisabledToolsJson() { return disabledToolsJson; }
    public void setDisabledToolsJson(String disabledToolsJson) { this.disabledToolsJson = disabledToolsJson; }
    public String getAutoApproveToolsJson() { return autoApproveToolsJson; }
    public long getSettingsVersion() { return settingsVersion; }
    void raiseSettingsVersion() { settingsVersion++; }
    public void setAutoApproveToolsJson(String autoApproveToolsJson) { this.autoApproveToolsJson = autoApproveToolsJson; }
}
