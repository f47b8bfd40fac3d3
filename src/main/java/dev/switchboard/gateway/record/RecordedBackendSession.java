package dev.switchboard.gateway.record;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A backend session a client session used (the governance data model's {@code backend_session}): the caller's pooled connection
 * to one server, with the backend's own session id when it gave one, and its state when last looked at.
 */
@Entity
@Table(name = "backend_session")
public class RecordedBackendSession {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;
    @Column(name = "gateway_session_id", nullable = false)
    private long gatewaySessionId;
    @Column(name = "server_id", nullable = false)
    private String serverId;
    @Column(name = "server_name", nullable = false)
    private String serverName;
    @Column(name = "backend_session_id")
    private String backendSessionId;
    @Column(nullable = false)
    private String state;
    @Column(name = "last_error")
    private String lastError;
    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    protected RecordedBackendSession() {
    }

    RecordedBackendSession(long gatewaySessionId, String serverId, String serverName) {
        this.gatewaySessionId = gatewaySessionId;
        this.serverId = serverId;
        this.serverName = serverName;
    }

    void observed(BackendObservation observation, long now) {
        state = observation.state();
        if (observation.backendSessionId() != null) {
            backendSessionId = observation.backendSessionId();
        }
        lastError = observation.lastError();
        updatedAt = now;
    }

    public long getGatewaySessionId() {
        return gatewaySessionId;
    }

    public String getServerId() {
        return serverId;
    }

    public String getServerName() {
        return serverName;
    }

    public String getBackendSessionId() {
        return backendSessionId;
    }

    public String getState() {
        return state;
    }

    public String getLastError() {
        return lastError;
    }

    public long getUpdatedAt() {
        return updatedAt;
    }
}
