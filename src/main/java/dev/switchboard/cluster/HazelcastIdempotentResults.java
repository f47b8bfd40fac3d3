package dev.switchboard.cluster;

import com.hazelcast.map.IMap;
import dev.switchboard.policy.IdempotentResults;
import jakarta.json.JsonObject;

import java.io.Serializable;
import java.io.StringReader;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Idempotency keys in a Hazelcast map, so one key sent to several members runs the tool once. A claim is an entry put
 * only if absent, living {@code wait} (so the claim of a member that died frees its key by then); the claimant replaces
 * it by the result, living the window. A call finding a running claim polls the entry (a few ms apart at first, at
 * most {@link #LONGEST_PAUSE}) until it holds a result, disappears (abandoned: the call claims it itself) or the wait
 * is over.
 */
final class HazelcastIdempotentResults implements IdempotentResults {

    private static final Logger LOG = Logger.getLogger(HazelcastIdempotentResults.class.getName());
    private static final long FIRST_PAUSE_MILLIS = 5;
    private static final long LONGEST_PAUSE = 100;

    /** A claim ({@code result} null while its call runs) or a result, as the map keeps it. */
    record Entry(String tool, String inputHash, String ticketId, String result) implements Serializable {

        static Entry running(Ticket ticket) {
            return new Entry(ticket.tool(), ticket.inputHash(), ticket.id(), null);
        }

        boolean sameCall(String otherTool, String otherInputHash) {
            return tool.equals(otherTool) && inputHash.equals(otherInputHash);
        }
    }

    private final IMap<String, Entry> entries;
    private final Duration window;
    private final Duration wait;
    private final boolean enabled;

    HazelcastIdempotentResults(IMap<String, Entry> entries, Duration window, Duration wait, boolean enabled) {
        this.entries = entries;
        this.window = window;
        this.wait = wait;
        this.enabled = enabled;
    }

    @Override
    public Claim claim(String scopedKey, String tool, String inputHash) {
        long deadline = System.nanoTime() + wait.toNanos();
        long pause = FIRST_PAUSE_MILLIS;
        while (true) {
            Ticket ticket = new Ticket(scopedKey, tool, inputHash, UUID.randomUUID().toString());
            Entry found = entries.putIfAbsent(scopedKey, Entry.running(ticket), wait.toMillis(), TimeUnit.MILLISECONDS);
            if (found == null) {
                return Claim.run(ticket);
            }
            if (!found.sameCall(tool, inputHash)) {
                return Claim.of(Verdict.CONFLICT);
            }
            if (found.result() != null) {
                return Claim.answer(parse(found.result()));
            }
            if (System.nanoTime() >= deadline) {
                return Claim.of(Verdict.STILL_RUNNING);
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                // the waiting call was cancelled: it answers nothing more
                Thread.currentThread().interrupt();
                return Claim.of(Verdict.STILL_RUNNING);
            }
            pause = Math.min(pause * 2, LONGEST_PAUSE);
        }
    }

    @Override
    public void complete(Ticket ticket, JsonObject result) {
        Entry done = new Entry(ticket.tool(), ticket.inputHash(), ticket.id(), result.toString());
        try {
            if (entries.replace(ticket.scopedKey(), Entry.running(ticket), done)) {
                entries.setTtl(ticket.scopedKey(), window.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (RuntimeException e) {
            // the call has its answer already; the key is answered again only if the result could be kept
            LOG.log(Level.WARNING, "Could not keep the result of an idempotency key in the cluster", e);
        }
    }

    @Override
    public void abandon(Ticket ticket) {
        try {
            entries.remove(ticket.scopedKey(), Entry.running(ticket));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not free an idempotency key in the cluster (its claim expires by itself)", e);
        }
    }

    @Override
    public boolean enabled() {
        return enabled;
    }

    private static JsonObject parse(String result) {
        try (var reader = JSON.createReader(new StringReader(Objects.requireNonNull(result)))) {
            return reader.readObject();
        }
    }
}
