package dev.switchboard.gateway.http;

import dev.switchboard.gateway.EventSink;
import dev.switchboard.gateway.SseStream;
import dev.switchboard.mcp.JsonRpcMessage;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * One SSE stream of a session as the client sees it (spec 2025-11-25, resumability): every event has an id naming
 * the stream and its position, the newest events are kept, and the stream outlives the HTTP connection carrying it,
 * so a client that lost the connection asks again with GET and {@code Last-Event-ID} and gets what it missed, then
 * what follows. New events go to the newest connection only (the spec forbids sending a message on two streams);
 * a finished stream (its request was answered) ends every connection once it has replayed what it holds. All in this
 * instance's memory.
 */
final class ResumableStream implements SseStream {

    private record Event(long sequence, String frame) {
    }

    private final int number;
    private final int capacity;
    private final Deque<Event> kept = new ArrayDeque<>();
    private final Deque<EventSink> connections = new ArrayDeque<>();
    private long lastSequence;
    private boolean finished;

    ResumableStream(int number, int capacity) {
        this.number = number;
        this.capacity = capacity;
    }

    @Override
    public int number() {
        return number;
    }

    @Override
    public synchronized long lastSequence() {
        return lastSequence;
    }

    synchronized boolean isFinished() {
        return finished;
    }

    /** Numbers, keeps and delivers one message; nothing after the stream finished. */
    @Override
    public synchronized void send(JsonRpcMessage message) {
        if (finished) {
            return;
        }
        long sequence = ++lastSequence;
        String frame = "id: " + new SseEventId(number, sequence) + "\nevent: message\ndata: " + message.toJson() + "\n\n";
        kept.addLast(new Event(sequence, frame));
        if (kept.size() > capacity) {
            kept.removeFirst();
        }
        while (!connections.isEmpty()) {
            EventSink newest = connections.peekLast();
            if (newest.write(frame)) {
                return;
            }
            // the client lost this connection and will resume from its last id: the event is kept for it
            connections.remove(newest);
        }
    }

    /**
     * A new connection that starts at the stream's current position: its first event carries that position's id
     * and no data (the spec's priming event), so the client can resume even before a message came, and the
     * reconnection delay the client should use.
     */
    @Override
    public synchronized void attachFresh(EventSink connection, Duration retry) {
        if (connection.write("id: " + new SseEventId(number, lastSequence) + "\nretry: " + retry.toMillis() + "\ndata: \n\n")) {
            keep(connection);
        }
    }

    /**
     * A connection resuming after event {@code afterSequence}: the kept events after it, then the live ones.
     *
     * @return how many events after {@code afterSequence} are no longer kept and so were not replayed
     */
    @Override
    public synchronized long attachAfter(EventSink connection, long afterSequence) {
        long firstKept = kept.isEmpty() ? lastSequence + 1 : kept.peekFirst().sequence();
        long lost = Math.max(0, firstKept - afterSequence - 1);
        for (Event event : kept) {
            if (event.sequence() > afterSequence && !connection.write(event.frame())) {
                return lost;
            }
        }
        keep(connection);
        return lost;
    }

    private void keep(EventSink connection) {
        if (finished) {
            connection.end();
            return;
        }
        connections.addLast(connection);
        connection.whenClosed(() -> detach(connection));
    }

    private synchronized void detach(EventSink connection) {
        connections.remove(connection);
    }

    /** The stream is complete: its connections end; what it kept stays for clients that still resume. */
    @Override
    public void finish() {
        List<EventSink> open;
        synchronized (this) {
            finished = true;
            open = new ArrayList<>(connections);
            connections.clear();
        }
        open.forEach(EventSink::end);
    }
}
