package dev.switchboard.sql.dialect;

import dev.switchboard.sql.session.QuerySession;
import dev.switchboard.sql.session.SessionStore;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The query dialect's {@code session.expired}: remembers which connections created or used a session, and on each
 * {@link #sweep()} removes the expired sessions from the store and tells those connections.
 */
public final class SessionWatch {

    private static final Logger LOG = Logger.getLogger(SessionWatch.class.getName());

    private final SessionStore store;
    private final Map<String, Set<DialectChannel>> watchers = new ConcurrentHashMap<>();

    public SessionWatch(SessionStore store) {
        this.store = store;
    }

    void watch(DialectChannel channel, String sessionId) {
        if (sessionId != null) {
            watchers.computeIfAbsent(sessionId, k -> ConcurrentHashMap.newKeySet()).add(channel);
        }
    }

    void unwatch(DialectChannel channel, String sessionId) {
        Set<DialectChannel> channels = watchers.get(sessionId);
        if (channels != null) {
            channels.remove(channel);
        }
    }

    void forget(DialectChannel channel) {
        watchers.values().forEach(channels -> channels.remove(channel));
        watchers.values().removeIf(Set::isEmpty);
    }

    /** Run periodically (every few seconds): expires sessions and notifies whoever used them. */
    public void sweep() {
        try {
            for (QuerySession expired : store.removeExpired()) {
                Set<DialectChannel> channels = watchers.remove(expired.id());
                if (channels != null) {
                    var notification = DialectMessages.notification("session.expired", JSON.createObjectBuilder()
                            .add("session_id", expired.id()).add("expired_at", expired.expiresAt().toString()).build());
                    channels.forEach(c -> c.send(notification));
                }
            }
        } catch (RuntimeException e) {
            // the next sweep tries again; a failed one must not end the schedule
            LOG.log(Level.WARNING, "session expiry sweep failed", e);
        }
    }
}
