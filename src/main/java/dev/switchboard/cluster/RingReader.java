package dev.switchboard.cluster;

import com.hazelcast.ringbuffer.ReadResultSet;
import com.hazelcast.ringbuffer.Ringbuffer;
import com.hazelcast.ringbuffer.StaleSequenceException;

import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Follows a {@link Ringbuffer} from a sequence on, handing each item to a callback in order, one at a time: one
 * outstanding read at a time, parked at the ring's owner until an item comes, so an item costs the reader no request
 * of its own, only the answer to the read it has waiting. Items are handed over on {@code executor}, never on a
 * Hazelcast thread. Stops when the callback says so, when {@link #stop()} is called or when the ring is destroyed; a
 * reader that fell so far behind that its next items were overwritten goes on from the oldest item kept.
 */
final class RingReader {

    /** What a reader does with each item. */
    interface Items {
        /** @return false to stop reading */
        boolean take(long sequence, String item);

        /** The ring is gone, or could not be read: no more items will come. */
        void gone();
    }

    private static final Logger LOG = Logger.getLogger(RingReader.class.getName());
    /** Items read per answer at most (and never more than the ring holds): a burst arrives in one answer. */
    static final int BATCH = 64;

    private final Ringbuffer<String> ring;
    private final Executor executor;
    private final Items items;
    private volatile boolean stopped;

    private RingReader(Ringbuffer<String> ring, Executor executor, Items items) {
        this.ring = ring;
        this.executor = executor;
        this.items = items;
    }

    /** Starts reading at {@code from} (at most the sequence after the ring's newest item). */
    static RingReader start(Ringbuffer<String> ring, long from, Executor executor, Items items) {
        RingReader reader = new RingReader(ring, executor, items);
        reader.read(from);
        return reader;
    }

    /** No more items are handed over (a read already waiting at the ring's owner ends with the next item). */
    void stop() {
        stopped = true;
    }

    private void read(long from) {
        if (stopped) {
            return;
        }
        try {
            ring.readManyAsync(from, 1, (int) Math.min(BATCH, ring.capacity()), null).whenCompleteAsync((read, failure) -> {
                if (failure == null) {
                    handOver(read);
                } else {
                    failed(from, failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure);
                }
            }, executor);
        } catch (RuntimeException e) {
            failed(from, e);
        }
    }

    private void handOver(ReadResultSet<String> read) {
        for (int i = 0; i < read.size(); i++) {
            if (stopped || !items.take(read.getSequence(i), read.get(i))) {
                stopped = true;
                return;
            }
        }
        read(read.getNextSequenceToReadFrom());
    }

    private void failed(long from, Throwable failure) {
        if (stopped) {
            return;
        }
        if (failure instanceof StaleSequenceException) {
            long head = ring.headSequence();
            LOG.warning(() -> "A reader of " + ring.getName() + " fell behind: " + (head - from)
                    + " items were overwritten before it read them");
            read(head);
            return;
        }
        LOG.log(Level.FINE, "Stopped reading " + ring.getName(), failure);
        stopped = true;
        items.gone();
    }
}
