package dev.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.multimap.MultiMap;
import com.hazelcast.query.Predicates;
import com.hazelcast.ringbuffer.Ringbuffer;
import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.SharedSseStreams;
import dev.switchboard.gateway.SseStream;
import dev.switchboard.gateway.StreamReplay;
import dev.switchboard.mcp.JsonRpcMessage;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The resumable streams of {@code /mcp} sessions shared by the members: each stream is a Hazelcast {@link Ringbuffer}
 * ({@link RingStream}; bounded to the replay limit, its items expiring with the session's idle timeout), what the
 * members know of a session's streams is one map entry ({@link StreamsOfSession}), and the sessions of a caller that
 * opened a GET stream are listed in a multimap by caller, so a notification any member receives for a caller is appended
 * once to each of the caller's GET streams, wherever they are held.
 * <p>
 * The rings of a session go when the session ends for good (not when a member merely drops its copy of it), when they
 * are older than the answered streams kept, or when the session's entry expires unused (a session whose members all
 * died).
 */
final class HazelcastSseStreams implements SharedSseStreams {

    private static final Logger LOG = Logger.getLogger(HazelcastSseStreams.class.getName());

    private final HazelcastInstance hazelcast;
    private final IMap<String, StreamsOfSession> sessions;
    private final MultiMap<String, String> bySubject;
    private final StreamReplay limits;
    private final Executor executor;

    HazelcastSseStreams(HazelcastInstance hazelcast, StreamReplay limits, Executor executor) {
        this.hazelcast = hazelcast;
        this.sessions = hazelcast.getMap(MemberConfig.SSE_SESSIONS);
        this.bySubject = hazelcast.getMultiMap(MemberConfig.SSE_BY_SUBJECT);
        this.limits = limits;
        this.executor = executor;
        sessions.addLocalEntryListener((EntryExpiredListener<String, StreamsOfSession>) expired ->
                drop(expired.getKey(), expired.getOldValue()), Predicates.alwaysTrue(), true);
    }

    @Override
    public StreamReplay limits() {
        return limits;
    }

    @Override
    public SseStream serverStream(GatewaySession session) {
        if (sessions.executeOnKey(session.id(), new StreamsOfSession.OpenServerStream(session.subject()))) {
            bySubject.put(session.subject(), session.id());
        }
        return stream(session, 0);
    }

    @Override
    public SseStream newRequestStream(GatewaySession session) {
        return stream(session, sessions.executeOnKey(session.id(), new StreamsOfSession.NextNumber(session.subject())));
    }

    @Override
    public Optional<SseStream> find(GatewaySession session, int number) {
        StreamsOfSession known = sessions.get(session.id());
        if (known == null || !known.keeps(number)) {
            return Optional.empty();
        }
        return Optional.of(stream(session, number));
    }

    @Override
    public boolean has(String sessionId) {
        StreamsOfSession known = sessions.get(sessionId);
        return known != null && known.serverStream();
    }

    @Override
    public void send(String sessionId, JsonRpcMessage message) {
        if (has(sessionId)) {
            ring(sessionId, 0).add(RingStream.MESSAGE + message.toJson());
        }
    }

    /** The session ended for good (on this member): its streams go, and their connections on every member end. */
    @Override
    public void ended(String sessionId) {
        drop(sessionId, sessions.remove(sessionId));
    }

    @Override
    public void sendToSubject(String subject, JsonRpcMessage message) {
        String item = RingStream.MESSAGE + message.toJson();
        for (String sessionId : bySubject.get(subject)) {
            ring(sessionId, 0).addAsync(item, com.hazelcast.ringbuffer.OverflowPolicy.OVERWRITE);
        }
    }

    private SseStream stream(GatewaySession session, int number) {
        Runnable finished = number == 0 ? () -> { } : () -> sessions.executeOnKey(session.id(),
                new StreamsOfSession.Finished(number, limits.finishedStreams())).forEach(n -> destroy(session.id(), n));
        return new RingStream(number, ring(session.id(), number), executor, session, finished);
    }

    private void drop(String sessionId, StreamsOfSession known) {
        if (known == null) {
            return;
        }
        bySubject.remove(known.subject(), sessionId);
        known.numbers().forEach(number -> destroy(sessionId, number));
    }

    private void destroy(String sessionId, int number) {
        try {
            ring(sessionId, number).destroy();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "stream " + number + " of a session was gone already", e);
        }
    }

    private Ringbuffer<String> ring(String sessionId, int number) {
        return hazelcast.getRingbuffer(MemberConfig.SSE_RING_PREFIX + sessionId + "-" + number);
    }

    /** The rings of a session still kept, for tests. */
    List<Integer> kept(String sessionId) {
        StreamsOfSession known = sessions.get(sessionId);
        return known == null ? List.of() : known.numbers();
    }
}
