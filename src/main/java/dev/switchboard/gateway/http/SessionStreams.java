package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.StreamReplay;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The resumable SSE streams of one session: stream 0 carries what the server starts (the GET stream, which lives
 * from the first GET to the end of the session, connected or not), and each request answered as SSE gets the next
 * number. Finished request streams are kept for late resumptions, at most {@link StreamReplay#finishedStreams()}
 * of them (oldest dropped first); a stream still running is always kept, since its response is still to come.
 */
final class SessionStreams {

    static final int SERVER_STREAM = 0;

    private final GatewaySession session;
    private final StreamReplay limits;
    private final Map<Integer, ResumableStream> requestStreams = new LinkedHashMap<>();
    private ResumableStream serverStream;
    private int nextNumber = SERVER_STREAM + 1;

    SessionStreams(GatewaySession session, StreamReplay limits) {
        this.session = session;
        this.limits = limits;
    }

    /**
     * The GET stream; made on the first GET, from when on the session's server-initiated messages are numbered and
     * kept even while no connection is open, so a client that comes back with its last id misses none.
     */
    synchronized ResumableStream serverStream() {
        if (serverStream == null) {
            ResumableStream stream = new ResumableStream(SERVER_STREAM, limits.eventsPerStream());
            serverStream = stream;
            session.addStream(stream::send);
        }
        return serverStream;
    }

    /** A stream for one request's SSE answer. */
    synchronized ResumableStream newRequestStream() {
        dropFinishedBeyond(limits.finishedStreams() - 1);
        ResumableStream stream = new ResumableStream(nextNumber++, limits.eventsPerStream());
        requestStreams.put(stream.number(), stream);
        return stream;
    }

    synchronized Optional<ResumableStream> find(int number) {
        return Optional.ofNullable(number == SERVER_STREAM ? serverStream : requestStreams.get(number));
    }

    /** The session ended: every connection of every stream ends. */
    void endAll() {
        List<ResumableStream> all;
        synchronized (this) {
            all = new ArrayList<>(requestStreams.values());
            if (serverStream != null) {
                all.add(serverStream);
            }
            requestStreams.clear();
        }
        all.forEach(ResumableStream::finish);
    }

    private void dropFinishedBeyond(int keep) {
        long finished = requestStreams.values().stream().filter(ResumableStream::isFinished).count();
        Iterator<ResumableStream> oldestFirst = requestStreams.values().iterator();
        while (finished > Math.max(keep, 0) && oldestFirst.hasNext()) {
            if (oldestFirst.next().isFinished()) {
                oldestFirst.remove();
                finished--;
            }
        }
    }
}
