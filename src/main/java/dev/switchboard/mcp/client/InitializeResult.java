package dev.switchboard.mcp.client;

import jakarta.json.JsonObject;

/**
 * What a backend answered to {@code initialize}.
 *
 * @param protocolVersion the version the backend chose (one we accept)
 * @param serverInfo      its {@code serverInfo} object (name, version, ...)
 * @param capabilities    its {@code capabilities} object
 * @param instructions    its optional {@code instructions}, or null
 * @param raw             the whole result as received
 */
public record InitializeResult(String protocolVersion, JsonObject serverInfo, JsonObject capabilities,
                               String instructions, JsonObject raw) {
}
