package dev.switchboard.cluster;

import com.hazelcast.ringbuffer.Ringbuffer;
import dev.switchboard.gateway.EventSink;
import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.SseStream;
import dev.switchboard.mcp.JsonRpcMessage;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executor;

/**
 * One resumable SSE stream of a {@code /mcp} session in a Hazelcast {@link Ringbuffer} every member reads and appends
 * to: a message appended on one member reaches the connection another member holds, and a client resumes on any member.
 * The ring's sequence is the event's sequence, so ids ({@code {stream}-{sequence}}) are ordered by the ring's owner,
 * one order for everyone.
 * <p>
 * The ring holds more than messages: a connection that attaches appends a marker first, so a connection that reads a
 * later connection's marker knows the client moved on and ends (new events go to the newest connection only, wherever
 * it is), and the end of the stream is an item too, read by every connection. Each connection follows the ring on its
 * own ({@link RingReader}); the member that appends writes to no connection itself.
 */
final class RingStream implements SseStream {

    static final char MESSAGE = 'm';
    static final char ATTACHED = 'a';
    static final char END = 'e';

    private final int number;
    private final Ringbuffer<String> ring;
    private final Executor executor;
    private final GatewaySession session;
    private final Runnable finished;

    /**
     * @param session  this member's copy of the session: when it ends, the stream's connections here end
     * @param finished runs once the stream's end is appended
     */
    RingStream(int number, Ringbuffer<String> ring, Executor executor, GatewaySession session, Runnable finished) {
        this.number = number;
        this.ring = ring;
        this.executor = executor;
        this.session = session;
        this.finished = finished;
    }

    @Override
    public int number() {
        return number;
    }

    /** The newest item's sequence; -1 for a ring with none. */
    @Override
    public long lastSequence() {
        return ring.tailSequence();
    }

    @Override
    public void send(JsonRpcMessage message) {
        ring.add(MESSAGE + message.toJson());
    }

    @Override
    public void attachFresh(EventSink connection, Duration retry) {
        long marker = ring.add(ATTACHED + UUID.randomUUID().toString());
        if (connection.write("id: " + number + "-" + marker + "\nretry: " + retry.toMillis() + "\ndata: \n\n")) {
            follow(connection, marker + 1, marker);
        }
    }

    @Override
    public long attachAfter(EventSink connection, long afterSequence) {
        long marker = ring.add(ATTACHED + UUID.randomUUID().toString());
        long head = ring.headSequence();
        long lost = Math.max(0, head - afterSequence - 1);
        follow(connection, Math.max(afterSequence + 1, head), marker);
        return lost;
    }

    @Override
    public void finish() {
        ring.add(String.valueOf(END));
        finished.run();
    }

    /** The frame of one message event. */
    static String frame(int stream, long sequence, String json) {
        return "id: " + stream + "-" + sequence + "\nevent: message\ndata: " + json + "\n\n";
    }

    private void follow(EventSink connection, long from, long ownMarker) {
        RingReader reader = RingReader.start(ring, from, executor, new RingReader.Items() {
            @Override
            public boolean take(long sequence, String item) {
                return deliver(connection, sequence, item, ownMarker);
            }

            @Override
            public void gone() {
                connection.end();
            }
        });
        Runnable end = connection::end;
        session.onEnd(end);
        connection.whenClosed(() -> {
            reader.stop();
            session.removeOnEnd(end);
        });
    }

    /** @return whether the connection reads on */
    private boolean deliver(EventSink connection, long sequence, String item, long ownMarker) {
        char kind = item.isEmpty() ? END : item.charAt(0);
        if (kind == MESSAGE) {
            return connection.write(frame(number, sequence, item.substring(1)));
        }
        if (kind == ATTACHED && sequence <= ownMarker) {
            return true;
        }
        // the stream ended, or a newer connection took it over
        connection.end();
        return false;
    }
}
