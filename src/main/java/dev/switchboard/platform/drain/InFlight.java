package dev.switchboard.platform.drain;

import java.time.Duration;
import java.util.Optional;

/**
 * The work a member has admitted and not finished, and whether it still admits any: once closed, {@link #enter} answers
 * empty, and {@link #awaitIdle} waits for what was admitted before. One monitor guards both, so no request slips in
 * between the close and the count it is waited on by.
 */
final class InFlight {

    private long running;
    private long admitted;
    private boolean closed;

    /** A ticket for one piece of work, or empty when this member no longer admits work. */
    synchronized Optional<Ticket> enter() {
        if (closed) {
            return Optional.empty();
        }
        running++;
        admitted++;
        return Optional.of(new Ticket(this));
    }

    /** Stops admitting; true for the call that closed it, false for any later one. */
    synchronized boolean close() {
        boolean first = !closed;
        closed = true;
        return first;
    }

    synchronized boolean closed() {
        return closed;
    }

    synchronized long running() {
        return running;
    }

    /** How much work was admitted since start. */
    synchronized long admitted() {
        return admitted;
    }

    /** Waits until nothing admitted runs any more, at most {@code limit}; true when nothing does. */
    synchronized boolean awaitIdle(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (running > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    private synchronized void leave() {
        running--;
        if (running == 0) {
            notifyAll();
        }
    }

    /** One admitted piece of work; closing it more than once counts once. */
    static final class Ticket implements AutoCloseable {

        private final InFlight owner;
        private boolean done;

        private Ticket(InFlight owner) {
            this.owner = owner;
        }

        @Override
        public void close() {
            synchronized (this) {
                if (done) {
                    return;
                }
                done = true;
            }
            owner.leave();
        }
    }
}
