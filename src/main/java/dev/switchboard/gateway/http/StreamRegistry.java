package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.SseStream;
import dev.switchboard.gateway.SseStreams;
import dev.switchboard.gateway.StreamReplay;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The resumable streams of every Streamable HTTP session in this instance's memory, dropped (and their connections
 * ended) with the session.
 */
final class StreamRegistry implements SseStreams {

    private final Map<String, SessionStreams> bySession = new ConcurrentHashMap<>();
    private final StreamReplay limits;

    StreamRegistry(StreamReplay limits) {
        this.limits = limits;
    }

    @Override
    public StreamReplay limits() {
        return limits;
    }

    @Override
    public SseStream serverStream(GatewaySession session) {
        return of(session).serverStream();
    }

    @Override
    public SseStream newRequestStream(GatewaySession session) {
        return of(session).newRequestStream();
    }

    @Override
    public Optional<SseStream> find(GatewaySession session, int number) {
        return of(session).find(number).map(SseStream.class::cast);
    }

    SessionStreams of(GatewaySession session) {
        SessionStreams existing = bySession.get(session.id());
        if (existing != null) {
            return existing;
        }
        SessionStreams created = new SessionStreams(session, limits);
        existing = bySession.putIfAbsent(session.id(), created);
        if (existing != null) {
            return existing;
        }
        session.onEnd(() -> {
            bySession.remove(session.id(), created);
            created.endAll();
        });
        return created;
    }
}
