package dev.switchboard.cluster;

import dev.switchboard.gateway.EventSink;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** An SSE connection that records what it was sent; it can be cut after some writes, as a client that goes away. */
final class RecordingSink implements EventSink {

    private final List<String> written = new ArrayList<>();
    private final List<Runnable> hooks = new ArrayList<>();
    private final int writesBeforeCut;
    private boolean closed;

    RecordingSink() {
        this(Integer.MAX_VALUE);
    }

    /** A connection whose client goes away after {@code writesBeforeCut} writes. */
    RecordingSink(int writesBeforeCut) {
        this.writesBeforeCut = writesBeforeCut;
    }

    @Override
    public boolean write(String text) {
        synchronized (this) {
            if (!closed && written.size() < writesBeforeCut) {
                written.add(text);
                notifyAll();
                return true;
            }
        }
        end();
        return false;
    }

    @Override
    public void end() {
        List<Runnable> run;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            run = List.copyOf(hooks);
            notifyAll();
        }
        run.forEach(Runnable::run);
    }

    @Override
    public void whenClosed(Runnable hook) {
        synchronized (this) {
            if (!closed) {
                hooks.add(hook);
                return;
            }
        }
        hook.run();
    }

    synchronized boolean closed() {
        return closed;
    }

    synchronized List<String> written() {
        return List.copyOf(written);
    }

    /** The ids of the events written, in order (the priming event's too). */
    synchronized List<String> ids() {
        return written.stream().map(frame -> frame.substring(4, frame.indexOf('\n'))).toList();
    }

    /** Waits up to 10 s until {@code condition} holds of this sink. */
    synchronized RecordingSink await(Predicate<RecordingSink> condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (!condition.test(this)) {
            long left = Duration.between(Instant.now(), deadline).toMillis();
            if (left <= 0) {
                throw new AssertionError("not reached within 10 s; written " + written + ", closed " + closed);
            }
            wait(left);
        }
        return this;
    }
}
