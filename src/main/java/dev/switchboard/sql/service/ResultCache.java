package dev.switchboard.sql.service;

import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.guard.RowWindow;
import jakarta.json.JsonObject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The query dialect's query-result cache (10 minutes): a repeated question with the same options and the same permissions
 * is answered without the model or the database. Bounded: at {@link #MAX_ENTRIES} expired entries go, then all.
 */
final class ResultCache {

    static final Duration DEFAULT_TTL = Duration.ofMinutes(10);
    static final int MAX_ENTRIES = 1000;

    /**
     * What an answer depends on: the question (with the session's earlier questions) or the caller's own statement,
     * the window, format and explanation asked for, and the caller's permissions (compared as a set, not rendered
     * into a string on every call).
     */
    record Key(String text, boolean isSql, RowWindow window, ResultFormat format, boolean explain, Permissions permissions,
               List<String> history) {
    }

    private record Entry(JsonObject result, Instant storedAt) {
    }

    private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
    private final Duration ttl;
    private final Clock clock;

    ResultCache(Duration ttl, Clock clock) {
        this.ttl = ttl;
        this.clock = clock;
    }

    Optional<JsonObject> get(Key key) {
        Entry entry = entries.get(key);
        if (entry == null || !clock.instant().isBefore(entry.storedAt().plus(ttl))) {
            return Optional.empty();
        }
        return Optional.of(entry.result());
    }

    void put(Key key, JsonObject result) {
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
