package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.StreamReplay;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The resumable streams of every Streamable HTTP session, dropped (and their connections ended) with the session. */
final class StreamRegistry {

    private final Map<String, SessionStreams> bySession = new ConcurrentHashMap<>();
    private final StreamReplay limits;

    StreamRegistry(StreamReplay limits) {
        this.limits = limits;
    }

    StreamReplay limits() {
        return limits;
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
