package dev.switchboard.gateway.record;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One client session as recorded (the governance data model's {@code gateway_session}). */
@Entity
@Table(name = "gateway_session")
public class RecordedSession {

    private static final int CLIENT_TEXT = 255;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;
    @Column(name = "session_id", nullable = false)
    private String sessionId;
    @Column(name = "tenant_id", nullable = false)
    private String tenantId;
    @Column(nullable = false)
    private String subject;
    @Column(nullable = false)
    private String endpoint;
    @Column(nullable = false)
    private String transport;
    @Column(name = "protocol_version", nullable = false)
    private String protocolVersion;
    @Column(name = "client_name")
    private String clientName;
    @Column(name = "client_version")
    private String clientVersion;
    @Column(name = "client_capabilities", nullable = false)
    private String clientCapabilities;
    @Column(name = "created_at", nullable = false)
    private long createdAt;
    @Column(name = "last_seen_at", nullable = false)
    private long lastSeenAt;
    @Column(name = "ended_at")
    private Long endedAt;
    @Column(name = "end_reason")
    private String endReason;

    protected RecordedSession() {
    }

    RecordedSession(String sessionId, String tenantId, String subject, String endpoint, String transport,
                    String protocolVersion, String clientName, String clientVersion, String clientCapabilities, long now) {
        this.sessionId = sessionId;
        this.tenantId = tenantId;
        this.subject = subject;
        this.endpoint = endpoint;
        this.transport = transport;
        this.protocolVersion = protocolVersion;
        // what the client says about itself is kept as far as the columns go
        this.clientName = clip(clientName);
        this.clientVersion = clip(clientVersion);
        this.clientCapabilities = clientCapabilities;
        this.createdAt = now;
        this.lastSeenAt = now;
    }

    private static String clip(String text) {
        return text == null || text.length() <= CLIENT_TEXT ? text : text.substring(0, CLIENT_TEXT);
    }

    void seen(long now) {
        lastSeenAt = Math.max(lastSeenAt, now);
    }

    void ended(long now, String reason) {
        if (endedAt == null) {
            endedAt = now;
            endReason = reason;
            seen(now);
        }
    }

    public Long getId() {
        return id;
    }

    public String getSessionId() {
        return sessionId;
    }

    public String getTenantId() {
        return tenantId;
    }

    public String getSubject() {
        return subject;
    }

    public String getEndpoint() {
        return endpoint;
    }

    public String getTransport() {
        return transport;
    }

    public String getProtocolVersion() {
        return protocolVersion;
    }

    public String getClientName() {
        return clientName;
    }

    public String getClientVersion() {
        return clientVersion;
    }

    public String getClientCapabilities() {
        return clientCapabilities;
    }

    public long getCreatedAt() {
        return createdAt;
    }

    public long getLastSeenAt() {
        return lastSeenAt;
    }

    public Long getEndedAt() {
        return endedAt;
    }

    public String getEndReason() {
        return endReason;
    }
}
