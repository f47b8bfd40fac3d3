/**
 * Who calls: the JWT issuer and its keys, local users, API keys, the secret cipher and masker, the request-scoped
 * {@link dev.switchboard.security.CurrentUser} (and {@link dev.switchboard.security.GatewayCaller} for {@code /mcp}),
 * and {@link dev.switchboard.security.CallerIdentity}, the one caller value the other rooms carry.
 * <p>
 * May use: {@code platform} (the allowed arrows of docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.security;
