/**
 * The audit trail: events, field redaction, the per-tenant hash chain, audit secrets and {@code /api/audit}.
 * <p>
 * May use: {@code platform}, {@code security} (the allowed arrows of docs/architecture.md, checked by {@code
 * ArchitectureTest}).
 */
package dev.switchboard.audit;
