package dev.switchboard.sql.service;

import jakarta.json.JsonObject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Seed 000's query-result cache (10 minutes): a repeated question with the same options and the same permissions
 * is answered without the model or the database. Bounded: at {@link #MAX_ENTRIES} expired entries go, then all.
 */
final class ResultCache {

    static final Duration DEFAULT_TTL = Duration.ofMinutes(10);
    static final int MAX_ENTRIES = 1000;

    private record Entry(JsonObject result, Instant storedAt) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Duration ttl;
    private final Clock clock;

    ResultCache(Duration ttl, Clock clock) {
        this.ttl = ttl;
        this.clock = clock;
    }

    Optional<JsonObject> get(String key) {
        Entry entry = entries.get(key);
        if (entry == null || !clock.instant().isBefore(entry.storedAt().plus(ttl))) {
            return Optional.empty();
        }
        return Optional.of(entry.result());
    }

    void put(String key, JsonObject result) {
        if (entries.size() >= MAX_ENTRIES) {
            Instant now = clock.instant();
            entries.values().removeIf(e -> !now.isBefore(e.storedAt().plus(ttl)));
            if (entries.size() >= MAX_ENTRIES) {
                entries.clear();
            }
        }
        entries.put(key, new Entry(result, clock.instant()));
    }
}
