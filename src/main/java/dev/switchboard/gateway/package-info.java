/**
 * The MCP gateway: {@code /mcp} and {@code /mcp/servers/{name}} over Streamable HTTP, legacy SSE and WebSocket,
 * client sessions, the router stack (observation, audit, policy, routing), the recorded sessions and the aggregated
 * tool list as the console reads it ({@code /api/gateway/tools}). It hands the
 * query dialect's messages on its WebSocket to {@code sql.dialect} and reaches backends through
 * {@code backend.access}.
 * <p>
 * May use: {@code platform}, {@code security}, {@code observability}, {@code mcp}, {@code audit}, {@code policy},
 * {@code backend}, {@code sql} (the allowed arrows of docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.gateway;
