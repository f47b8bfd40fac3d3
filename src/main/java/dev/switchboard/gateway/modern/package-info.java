/**
 * The gateway for clients of the stateless MCP era (2026-07-28): which requests are of that era, their checks
 * (headers against body, {@code _meta}, version), {@code server/discover}, results as that era wants them
 * ({@code resultType}, caching hints) and error codes that mean one thing only. The requests themselves are served by
 * the same router stack as a session's ({@code gateway.GatewayRouters}); {@code gateway.http} carries them.
 */
package dev.switchboard.gateway.modern;
