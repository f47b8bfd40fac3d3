package dev.switchboard.audit;

import jakarta.json.JsonValue;

/**
 * What a caller reports to the audit log. {@code input} is hashed (HMAC), never stored.
 *
 * @param action   e.g. {@code tools/call}, {@code resources/read}, {@code prompts/get}, {@code policy}
 * @param decision e.g. {@code allow}, {@code deny}, {@code rate_limited}
 * @param outcome  e.g. {@code ok}, {@code tool_error}, {@code backend_unavailable}; null for a refusal
 */
public record AuditRecord(long ts, String tenantId, String clientId, String subject, String action, String tool,
                          String backendId, String decision, String traceId, JsonValue input, String outcome,
                          Long durationMs) {
}
