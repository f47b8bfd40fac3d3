/**
 * The Model Context Protocol itself: JSON-RPC messages and the peer that correlates them, protocol versions, the
 * client transports ({@code mcp.transport}), the client ({@code mcp.client}) and the in-process server side
 * ({@code mcp.server}).
 * <p>
 * May use: {@code platform} (the allowed arrows of docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.mcp;
