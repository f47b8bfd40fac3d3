package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Which client sessions subscribed to which backend resource. A caller's client sessions share that caller's
 * pooled backend session, so the backend sees one subscription per (caller, server, URI): the first client
 * session to subscribe subscribes at the backend and the last one to unsubscribe unsubscribes there. A client session that
 * ends just stops receiving; the backend subscription stays, and its updates go nowhere until someone subscribes again.
 */
public final class ResourceSubscriptions {

    private record Key(String subject, String serverId, String uri) {
    }

    /**
     * One subscriber: its session and the backend name it knows the resource under, or null when it knows the
     * backend's own URI (a per-backend passthrough).
     */
    private record Subscriber(GatewaySession session, String backendName) {
    }

    private final Map<Key, Map<String, Subscriber>> subscribers = new ConcurrentHashMap<>();

    /** The subscriptions of one client session, as the router uses them. */
    public interface Scope {
        /** Records the subscription; true when the backend must be told (nobody of this caller had subscribed). */
        boolean subscribe(GatewayBackend backend, String uri);

        /** Drops the subscription; true when the backend must be told (it was the caller's last one). */
        boolean unsubscribe(GatewayBackend backend, String uri);

        /** No subscriptions: a request without a session (MCP 2026-07-28) has none to keep. */
        Scope NONE = new Scope() {
            @Override
            public boolean subscribe(GatewayBackend backend, String uri) {
                return false;
            }

            @Override
            public boolean unsubscribe(GatewayBackend backend, String uri) {
                return false;
            }
        };
    }

    /** The subscriptions of a session of the aggregated endpoint, which knows resources by their gateway URIs. */
    public Scope of(GatewaySession session) {
        return of(session, true);
    }

    /** @param rewrite whether the session knows resources by gateway URIs (false: by the backend's own) */
    public Scope of(GatewaySession session, boolean rewrite) {
        return new Scope() {
            @Override
            public boolean subscribe(GatewayBackend backend, String uri) {
                boolean[] first = {false};
                subscribers.compute(new Key(session.subject(), backend.serverId(), uri), (key, current) -> {
                    Map<String, Subscriber> next = current == null ? new ConcurrentHashMap<>() : current;
                    first[0] = next.isEmpty();
                    next.put(session.id(), new Subscriber(session, rewrite ? backend.name() : null));
                    return next;
                });
                return first[0];
            }

            @Override
            public boolean unsubscribe(GatewayBackend backend, String uri) {
                boolean[] last = {false};
                subscribers.computeIfPresent(new Key(session.subject(), backend.serverId(), uri), (key, current) -> {
                    last[0] = current.remove(session.id()) != null && current.values().stream()
                            .noneMatch(s -> !s.session().isEnded());
                    return current.isEmpty() ? null : current;
                });
                return last[0];
            }
        };
    }

    /**
     * Hands a backend's {@code notifications/resources/updated} to the caller's live sessions that subscribed to it,
     * under the URI each of them knows.
     */
    public void updated(String subject, String serverId, JsonObject params) {
        String uri = params.getString("uri", null);
        Map<String, Subscriber> current = uri == null ? null : subscribers.get(new Key(subject, serverId, uri));
        if (current == null) {
            return;
        }
        for (Subscriber subscriber : List.copyOf(current.values())) {
            if (subscriber.session().isEnded()) {
                current.remove(subscriber.session().id(), subscriber);
                continue;
            }
            String exposed = subscriber.backendName() == null ? uri : new ResourceUri(subscriber.backendName(), uri).exposed();
            subscriber.session().sendToStreams(JsonRpcMessage.notification("notifications/resources/updated",
                    JSON.createObjectBuilder(params).add("uri", exposed).build()));
        }
    }

    /** The session ids subscribed to a resource, for tests and diagnostics. */
    Set<String> sessionsOf(String subject, String serverId, String uri) {
        Map<String, Subscriber> current = subscribers.get(new Key(subject, serverId, uri));
        return current == null ? Set.of() : Set.copyOf(current.keySet());
    }
}
