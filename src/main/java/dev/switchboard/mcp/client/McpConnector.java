package dev.switchboard.mcp.client;

import dev.switchboard.mcp.McpException;

import java.time.Duration;

/** Opens transports and runs the {@code initialize} handshake. */
public interface McpConnector {

    /**
     * Connects, sends {@code initialize} (offering the newest protocol version we speak, accepting any
     * older one we support that the backend answers with) and {@code notifications/initialized}.
     *
     * @param timeout deadline for the whole handshake
     */
    McpClient connect(BackendSpec spec, Duration timeout) throws McpException;
}
