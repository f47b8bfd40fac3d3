package dev.switchboard.backend.connection;

import dev.switchboard.backend.registry.McpServer;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.client.BackendSpec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;

import java.util.List;

/** Placeholder until the connection pool lands (same session). */
@ApplicationScoped
public class BackendConnections {

    public ConnectionStatus status(String subject, long serverId) {
        return new ConnectionStatus("disconnected", null);
    }

    public ConnectionTestResult test(String subject, McpServer server, BackendSpec spec) {
        return ConnectionTestResult.failed(new McpException(McpException.Kind.CONNECT_REFUSED, "pool not wired"), 0);
    }

    public List<JsonObject> tools(String subject, McpServer server, BackendSpec spec) throws McpException {
        throw new McpException(McpException.Kind.CONNECT_REFUSED, "pool not wired");
    }
}
