package dev.switchboard.policy;

import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The first completed result of each idempotency key, kept for a window, so a client repeating a {@code tools/call}
 * with the same key gets that result again instead of running the tool twice. Keys are scoped by tenant and subject;
 * a key reused for another tool or other arguments is refused rather than answered with a stranger's result. Bounded:
 * beyond {@code capacity} the least recently stored result goes first.
 */
public final class IdempotentResults {

    /** What a key was first used for and what it produced. */
    public record Stored(String tool, String inputHash, JsonObject result, long storedAtNanos) {
    }

    private final Duration window;
    private final int capacity;
    private final LongSupplier nanoClock;
    private final Map<String, Stored> results;

    public IdempotentResults(Duration window, int capacity, LongSupplier nanoClock) {
        this.window = window;
        this.capacity = capacity;
        this.nanoClock = nanoClock;
        this.results = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Stored> eldest) {
                return size() > IdempotentResults.this.capacity;
            }
        };
    }

    public static String scope(String tenant, String subject, String key) {
        return tenant + "\u0000" + subject + "\u0000" + key;
    }

    public synchronized Optional<Stored> find(String scopedKey) {
        Stored stored = results.get(scopedKey);
        if (stored == null) {
            return Optional.empty();
        }
        if (nanoClock.getAsLong() - stored.storedAtNanos() > window.toNanos()) {
            results.remove(scopedKey);
            return Optional.empty();
        }
        return Optional.of(stored);
    }

    /** Keeps the first result only: a later one under the same key never replaces it. */
    public synchronized void store(String scopedKey, String tool, String inputHash, JsonObject result) {
        if (find(scopedKey).isEmpty()) {
            results.put(scopedKey, new Stored(tool, inputHash, result, nanoClock.getAsLong()));
        }
    }

    public boolean enabled() {
        return capacity > 0 && !window.isZero();
    }
}
