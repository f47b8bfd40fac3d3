package dev.switchboard.policy;

import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * Idempotency keys in this JVM. Bounded: beyond {@code capacity} the least recently claimed key goes first. A call
 * waiting for the first call with its key waits on this object's monitor, woken when a claim completes or is
 * abandoned.
 */
public final class LocalIdempotentResults implements IdempotentResults {

    private static final class Entry {
        final Ticket ticket;
        JsonObject result;
        long storedAtNanos;

        Entry(Ticket ticket) {
            this.ticket = ticket;
        }
    }

    private final Duration window;
    private final int capacity;
    private final Duration wait;
    private final LongSupplier nanoClock;
    private final Map<String, Entry> entries;

    /**
     * @param window    how long a completed result is answered again
     * @param capacity  keys kept
     * @param wait      how long a call waits for the first call with its key to complete
     * @param nanoClock the time windows are measured by (tests move it by hand)
     */
    public LocalIdempotentResults(Duration window, int capacity, Duration wait, LongSupplier nanoClock) {
        this.window = window;
        this.capacity = capacity;
        this.wait = wait;
        this.nanoClock = nanoClock;
        this.entries = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > LocalIdempotentResults.this.capacity;
            }
        };
    }

    @Override
    public synchronized Claim claim(String scopedKey, String tool, String inputHash) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Entry entry = live(scopedKey);
            if (entry == null) {
                Ticket ticket = new Ticket(scopedKey, tool, inputHash, UUID.randomUUID().toString());
                entries.put(scopedKey, new Entry(ticket));
                return Claim.run(ticket);
            }
            if (!entry.ticket.tool().equals(tool) || !entry.ticket.inputHash().equals(inputHash)) {
                return Claim.of(Verdict.CONFLICT);
            }
            if (entry.result != null) {
                return Claim.answer(entry.result);
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Claim.of(Verdict.STILL_RUNNING);
            }
            try {
                wait(Math.max(1, Duration.ofNanos(left).toMillis()));
            } catch (InterruptedException e) {
                // the waiting call was cancelled: it answers nothing more
                Thread.currentThread().interrupt();
                return Claim.of(Verdict.STILL_RUNNING);
            }
        }
    }

    @Override
    public synchronized void complete(Ticket ticket, JsonObject result) {
        Entry entry = entries.get(ticket.scopedKey());
        if (entry != null && entry.ticket.equals(ticket)) {
            entry.result = result;
            entry.storedAtNanos = nanoClock.getAsLong();
        }
        notifyAll();
    }

    @Override
    public synchronized void abandon(Ticket ticket) {
        Entry entry = entries.get(ticket.scopedKey());
        if (entry != null && entry.ticket.equals(ticket)) {
            entries.remove(ticket.scopedKey());
        }
        notifyAll();
    }

    @Override
    public boolean enabled() {
        return capacity > 0 && !window.isZero();
    }

    /** The key's entry: a running call's claim, or a result still inside its window. */
    private Entry live(String scopedKey) {
        Entry entry = entries.get(scopedKey);
        if (entry != null && entry.result != null && nanoClock.getAsLong() - entry.storedAtNanos > window.toNanos()) {
            entries.remove(scopedKey);
            return null;
        }
        return entry;
    }
}
