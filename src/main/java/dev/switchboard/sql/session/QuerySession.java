package dev.switchboard.sql.session;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

import java.time.Instant;

/** A session of the query dialect: its owner, history ({query, sql, timestamp, success}), context and times. */
public record QuerySession(String id, String userId, JsonArray history, JsonObject context, Instant createdAt,
                           Instant lastAccessed, Instant expiresAt) {
}
