package dev.switchboard.chat;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wakes a run on this instance as soon as a confirm for its message is stored here. Only a shortcut: the database
 * is the truth, and a run also re-reads it every poll interval, which is how confirms on other instances reach it.
 */
@ApplicationScoped
public class ApprovalSignals {

    private final Map<Long, Semaphore> waiting = new ConcurrentHashMap<>();

    /** A run is about to wait for this message: signals from now on are kept for it, even before it sleeps. */
    void expect(long messageId) {
        waiting.computeIfAbsent(messageId, id -> new Semaphore(0));
    }

    /** Waits up to {@code millis} for a signal for the message; false when none came. */
    boolean await(long messageId, long millis) throws InterruptedException {
        return waiting.computeIfAbsent(messageId, id -> new Semaphore(0)).tryAcquire(millis, TimeUnit.MILLISECONDS);
    }

    void signal(long messageId) {
        Semaphore semaphore = waiting.get(messageId);
        if (semaphore != null) {
            semaphore.release();
        }
    }

    /** The run stopped waiting for this message. */
    void forget(long messageId) {
        waiting.remove(messageId);
    }
}
