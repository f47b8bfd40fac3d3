package dev.switchboard.gateway;

/**
 * One HTTP response carrying SSE text, as a stream writes to it: a write that fails closes it, and whoever keeps it
 * hears about the close once.
 */
public interface EventSink {

    /** Writes and flushes; false when the client is gone (the sink is closed then). */
    boolean write(String text);

    /** Ends the response; idempotent. */
    void end();

    /** Runs {@code hook} once when the sink closes, however it closes (at once if it is closed). */
    void whenClosed(Runnable hook);
}
