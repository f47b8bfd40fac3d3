package dev.switchboard.gateway.http;

import dev.switchboard.platform.drain.DrainStarted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Every GET stream of {@code /mcp} open on this member (session streams, resumed streams, legacy SSE), so that a drain
 * can end them with an SSE {@code retry} hint: the client reconnects, through the load balancer, to a member that
 * stays. The set is static because the streams are opened by plain objects of the servlet, not by beans; there is one
 * application per server.
 */
@ApplicationScoped
public class OpenStreams {

    private static final Logger LOG = Logger.getLogger(OpenStreams.class.getName());
    private static final Set<SseConnection> OPEN = ConcurrentHashMap.newKeySet();

    static void keep(SseConnection connection) {
        OPEN.add(connection);
        connection.whenClosed(() -> OPEN.remove(connection));
    }

    static int count() {
        return OPEN.size();
    }

    void endAll(@Observes DrainStarted drain) {
        List<SseConnection> open = List.copyOf(OPEN);
        open.forEach(connection -> connection.endWithRetry(drain.retry()));
        LOG.info(() -> "Drain: ended " + open.size() + " open /mcp stream(s) with retry " + drain.retry().toMillis() + " ms");
    }
}
