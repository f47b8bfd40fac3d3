package dev.switchboard.gateway;

import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.backend.pool.PoolKey;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Roots between gateway clients and backends outside any request. A backend that asks {@code roots/list} on its own
 * (at connect, or after being told the roots changed) asks the caller's pooled connection, which the caller's
 * sessions share: the question goes to the caller's most recently used session that offers roots and can be reached
 * now (a GET stream, a socket, a legacy SSE stream), and waits at most the configured time for the answer. Without
 * such a session it is answered as before (no roots). A client's {@code notifications/roots/list_changed} goes to
 * every open connection of the caller, so backends ask again.
 */
public final class RootsRelay implements BiFunction<PoolKey, String, ServerRequestHandler> {

    private static final Logger LOG = Logger.getLogger(RootsRelay.class.getName());
    static final String ROOTS_LIST = "roots/list";
    public static final String ROOTS_CHANGED_METHOD = "notifications/roots/list_changed";

    private final GatewaySessions sessions;
    private final Duration wait;

    public RootsRelay(GatewaySessions sessions, Duration wait) {
        this.sessions = sessions;
        this.wait = wait;
    }

    @Override
    public ServerRequestHandler apply(PoolKey connection, String method) {
        if (!ROOTS_LIST.equals(method)) {
            return null;
        }
        return sessions.ofSubject(connection.userSubject()).stream()
                .filter(s -> !s.isEnded() && s.hasStreams() && s.clientRequests().offers(method))
                .max(Comparator.comparing(GatewaySession::lastUsedAt))
                .map(s -> s.clientRequests().over(s::sendToStreams, wait))
                .orElse(null);
    }

    /** Tells the caller's open connections to these backends that the client's roots changed. */
    public static void rootsChanged(BackendConnectionPool pool, String subject, List<GatewayBackend> backends) {
        for (GatewayBackend backend : backends) {
            try {
                pool.notifyIfConnected(subject, backend.serverId(), ROOTS_CHANGED_METHOD, JsonValue.EMPTY_JSON_OBJECT);
            } catch (McpException e) {
                LOG.log(Level.FINE, "could not tell " + backend.name() + " that roots changed", e);
            }
        }
    }
}
