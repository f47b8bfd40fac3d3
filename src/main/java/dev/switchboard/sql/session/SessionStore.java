package dev.switchboard.sql.session;

import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

import javax.sql.DataSource;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Sessions in Switchboard's own database ({@code query_sessions}, migration V7), so they survive a restart. A
 * session lives {@code ttl} after its last use (the query dialect's default: one hour); history keeps the last {@link #MAX_HISTORY}
 * questions.
 */
public final class SessionStore {

    public static final Duration DEFAULT_TTL = Duration.ofHours(1);
    /**
     * How long after its expiry a session watched by another instance is left to that instance: its sweep runs every
     * 10 seconds, so one that has not removed it by then has stopped.
     */
    static final Duration ORPHAN_GRACE = Duration.ofMinutes(1);
    static final int MAX_HISTORY = 50;

    private final DataSource dataSource;
    private final Duration ttl;
    private final Clock clock;

    public SessionStore(DataSource dataSource, Duration ttl, Clock clock) {
        this.dataSource = dataSource;
        this.ttl = ttl;
        this.clock = clock;
    }

    public QuerySession create(String userId) {
        Instant now = now();
        QuerySession session = new QuerySession("session-" + UUID.randomUUID(), userId, JsonArray.EMPTY_JSON_ARRAY,
                JsonObject.EMPTY_JSON_OBJECT, now, now, now.plus(ttl));
        update("INSERT INTO query_sessions (id, user_id, history, context, created_at, last_accessed, expires_at) VALUES (?,?,?,?,?,?,?)",
                session.id(), userId, "[]", "{}", now.toEpochMilli(), now.toEpochMilli(), session.expiresAt().toEpochMilli());
        return session;
    }

    /** The caller's live session, its expiry pushed back; -31002 when it is unknown, someone else's or expired. */
    public QuerySession touch(String id, String userId) {
        QuerySession session = find(id).filter(s -> s.userId().equals(userId))
                .orElseThrow(() -> sessionError(id, "会话不存在"));
        Instant now = now();
        if (!now.isBefore(session.expiresAt())) {
            throw new QueryException(QueryErrorCode.SESSION, "会话已过期",
                    Map.of("session_id", id, "expired_at", session.expiresAt().toString()));
        }
        update("UPDATE query_sessions SET last_accessed = ?, expires_at = ? WHERE id = ?",
                now.toEpochMilli(), now.plus(ttl).toEpochMilli(), id);
        return new QuerySession(id, userId, session.history(), session.context(), session.createdAt(), now, now.plus(ttl));
    }

    /** Appends one question to the history and replaces the context. */
    public void record(String id, JsonObject entry, JsonObject context) {
        QuerySession session = find(id).orElseThrow(() -> sessionError(id, "会话不存在"));
        var history = JSON.createArrayBuilder();
        List<?> kept = session.history().subList(Math.max(0, session.history().size() - MAX_HISTORY + 1), session.history().size());
        kept.forEach(v -> history.add((JsonValue) v));
        history.add(entry);
        update("UPDATE query_sessions SET history = ?, context = ? WHERE id = ?", history.build().toString(), context.toString(), id);
    }

    public boolean destroy(String id, String userId) {
        return update("DELETE FROM query_sessions WHERE id = ? AND user_id = ?", id, userId) > 0;
    }

    /** Records that {@code watcher} (one instance's {@code SessionWatch}) watches the session from now on. */
    public void watchedBy(String id, String watcher) {
        update("UPDATE query_sessions SET watched_by = ? WHERE id = ?", watcher, id);
    }

    /**
     * Removes the expired sessions that are {@code watcher}'s to expire and returns them, for the
     * {@code session.expired} notifications: those it watches, those nobody watches, and those whose expiry is
     * {@link #ORPHAN_GRACE} past (their watcher would have removed them: it is gone). Another instance's sessions are
     * left to it, so its connections hear of their expiry. A session used meanwhile (its expiry moved on) stays.
     */
    public List<QuerySession> removeExpired(String watcher) {
        long now = now().toEpochMilli();
        List<QuerySession> expired = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement select = c.prepareStatement("SELECT * FROM query_sessions WHERE expires_at <= ? "
                     + "AND (watched_by = ? OR watched_by IS NULL OR expires_at <= ?)")) {
            select.setLong(1, now);
            select.setString(2, watcher);
            select.setLong(3, now - ORPHAN_GRACE.toMillis());
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    expired.add(read(rs));
                }
            }
        } catch (SQLException e) {
            throw storeError(e);
        }
        expired.forEach(s -> update("DELETE FROM query_sessions WHERE id = ? AND expires_at <= ?", s.id(), now));
        return expired;
    }

    public Optional<QuerySession> find(String id) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement select = c.prepareStatement("SELECT * FROM query_sessions WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw storeError(e);
        }
    }

    private Instant now() {
        return clock.instant();
    }

    private static QuerySession read(ResultSet rs) throws SQLException {
        try (JsonReader history = JSON.createReader(new StringReader(rs.getString("history")));
             JsonReader context = JSON.createReader(new StringReader(rs.getString("context")))) {
            return new QuerySession(rs.getString("id"), rs.getString("user_id"), history.readArray(), context.readObject(),
                    Instant.ofEpochMilli(rs.getLong("created_at")), Instant.ofEpochMilli(rs.getLong("last_accessed")),
                    Instant.ofEpochMilli(rs.getLong("expires_at")));
        }
    }

    private int update(String sql, Object... values) {
        try (Connection c = dataSource.getConnection(); PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw storeError(e);
        }
    }

    private static QueryException sessionError(String id, String message) {
        return new QueryException(QueryErrorCode.SESSION, message, Map.of("session_id", id));
    }

    private static QueryException storeError(SQLException e) {
        return new QueryException(QueryErrorCode.INTERNAL, "会话存储不可用", Map.of("reason", String.valueOf(e.getMessage())), e);
    }
}
