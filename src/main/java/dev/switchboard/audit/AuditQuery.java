package dev.switchboard.audit;

import dev.switchboard.platform.ApiException;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Filters of {@code GET /api/audit}, validated: time bounds as ISO-8601 instants or epoch milliseconds, a page size
 * of 1 to 500 (default 50), and a cursor that is the id of the last event of the previous page.
 */
public record AuditQuery(String tenant, String subject, String tool, String backend, String decision,
                         Long from, Long to, int limit, Long before) {

    public static AuditQuery of(String tenant, String subject, String tool, String backend, String decision,
                                String from, String to, String limit, String cursor) {
        return new AuditQuery(tenant, subject, tool, backend, decision, time("from", from), time("to", to),
                limit == null ? 50 : bounded(limit), cursor == null ? null : number("cursor", cursor));
    }

    private static Long time(String name, String value) {
        if (value == null) {
            return null;
        }
        try {
            return value.chars().allMatch(Character::isDigit) ? Long.parseLong(value) : Instant.parse(value).toEpochMilli();
        } catch (NumberFormatException | DateTimeParseException e) {
            throw ApiException.badRequest("invalid_time", "'" + name + "' must be an ISO-8601 instant or epoch milliseconds");
        }
    }

    private static int bounded(String limit) {
        long value = number("limit", limit);
        if (value < 1 || value > 500) {
            throw ApiException.badRequest("invalid_limit", "'limit' must be between 1 and 500");
        }
        return (int) value;
    }

    private static long number(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_" + name, "'" + name + "' must be a whole number");
        }
    }
}
