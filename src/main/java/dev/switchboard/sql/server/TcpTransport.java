package dev.switchboard.sql.server;

import dev.switchboard.sql.dialect.DialectMessageLimit;
import dev.switchboard.sql.tcp.TcpDialectServer;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts the query dialect's TCP transport with the application: {@code query.tcp.port} (default 8765; 0 switches it off)
 * on {@code query.tcp.host}, at most {@code query.limit.max-connections} sockets (the dialect's default: 1000; the dialect applies the
 * same number to its connections of every transport together).
 */
@ApplicationScoped
public class TcpTransport {

    private static final Logger LOG = Logger.getLogger(TcpTransport.class.getName());

    @Inject
    QueryDialectBean dialect;

    @Resource
    ManagedThreadFactory threadFactory;

    @Inject
    @ConfigProperty(name = "query.tcp.port", defaultValue = "8765")
    int port;

    @Inject
    @ConfigProperty(name = "query.tcp.host", defaultValue = "0.0.0.0")
    String host;

    @Inject
    @ConfigProperty(name = "query.limit.max-connections", defaultValue = "1000")
    int maxConnections;

    @Inject
    @ConfigProperty(name = DialectMessageLimit.PROPERTY, defaultValue = DialectMessageLimit.DEFAULT_BYTES)
    int maxMessageBytes;

    private TcpDialectServer server;

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        if (port == 0) {
            LOG.info("Query-dialect TCP transport off (query.tcp.port=0)");
            return;
        }
        try {
            // the dialect bean is a proxy: the query database is opened on the first message, not here
            server = new TcpDialectServer(dialect, threadFactory, host, port, maxConnections, maxMessageBytes);
            LOG.info(() -> "Query-dialect TCP transport on " + host + ":" + server.port());
        } catch (IOException e) {
            LOG.log(Level.SEVERE, "Query-dialect TCP transport cannot listen on " + host + ":" + port, e);
        }
    }

    @PreDestroy
    void stop() {
        if (server != null) {
            try {
                server.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "Query-dialect TCP transport did not close cleanly", e);
            }
        }
    }
}
