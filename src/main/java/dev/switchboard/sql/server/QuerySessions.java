package dev.switchboard.sql.server;

import dev.switchboard.sql.dialect.SessionWatch;
import dev.switchboard.sql.session.SessionStore;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import javax.sql.DataSource;
import java.time.Clock;
import java.time.Duration;

/**
 * The query sessions of every transport (the dialect, {@code /api/query}, the {@code sqlquery} tools), in Switchboard's
 * own database, and the dialect connections watching them. A bean of its own, apart from the query database, so
 * that the expiry timer ({@link QuerySessionExpiry}) never opens the query database.
 */
@ApplicationScoped
public class QuerySessions {

    @Resource(lookup = "jdbc/switchboard")
    DataSource switchboardDb;

    @Inject
    @ConfigProperty(name = "query.session.ttl", defaultValue = "PT1H")
    Duration ttl;

    private SessionStore store;
    private SessionWatch watch;

    @PostConstruct
    void init() {
        store = new SessionStore(switchboardDb, ttl, Clock.systemUTC());
        watch = new SessionWatch(store);
    }

    public SessionStore store() {
        return store;
    }

    /** Which dialect connections use which session, told {@code session.expired} when it ends. */
    public SessionWatch watch() {
        return watch;
    }
}
