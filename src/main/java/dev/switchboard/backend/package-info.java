/**
 * The registered MCP servers and every call made to them: the registry, the pool of per-user backend sessions,
 * the one backend-access layer ({@code backend.access}: pool, breaker and bulkhead, trace) that the gateway and the
 * chat loop share, backend and tool names ({@code backend.tools}) and the built-in servers.
 * <p>
 * May use: {@code platform}, {@code security}, {@code observability}, {@code mcp}, {@code policy} (the allowed arrows of
 * docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.backend;
