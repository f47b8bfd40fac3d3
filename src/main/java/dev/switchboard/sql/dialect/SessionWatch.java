package dev.switchboard.sql.dialect;

import dev.switchboard.sql.session.QuerySession;
import dev.switchboard.sql.session.SessionStore;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The query dialect's {@code session.expired}: remembers which connections of this instance created or used a
 * session, marks the session in the store as watched by this instance, and on each {@link #sweep()} removes the
 * expired sessions that are this instance's to expire and tells those connections. With several instances on one
 * database each expires what it watches, so the instance holding the connections is the one that tells them.
 */
public final class SessionWatch {

    private static final Logger LOG = Logger.getLogger(SessionWatch.class.getName());

    private final SessionStore store;
    /** This watch's name in the store, new at every start: a restarted instance holds none of its old connections. */
    private final String name = UUID.randomUUID().toString();
    private final Map<String, Set<DialectChannel>> watchers = new ConcurrentHashMap<>();

    public SessionWatch(SessionStore store) {
        this.store = store;
    }

    /** A connection of this instance used the session: it hears of its expiry, and this instance expires it. */
    void watch(DialectChannel channel, String sessionId) {
        if (sessionId != null && watchers.computeIfAbsent(sessionId, k -> ConcurrentHashMap.newKeySet()).add(channel)) {
            try {
                store.watchedBy(sessionId, name);
            } catch (RuntimeException e) {
                // the session still works; it is expired by any instance once its expiry is long past
                LOG.log(Level.WARNING, "could not mark query session " + sessionId + " as watched here", e);
            }
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
            for (QuerySession expired : store.removeExpired(name)) {
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
