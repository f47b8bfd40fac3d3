package dev.switchboard.sql.catalog;

import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.execute.QueryConnectionSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What the query database holds (tables, columns, keys, indexes, relationships), read once and kept for a while:
 * the query dialect caches the schema for one hour. {@link #refresh()} forgets it at once (an admin's refresh, a DDL change).
 */
public final class SchemaCatalog {

    /** The query dialect: 缓存有效期 Schema 1 小时. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(1);

    private record Snapshot(Map<String, TableInfo> tables, Instant readAt) {
    }

    private final Supplier<Map<String, TableInfo>> reader;
    private final Duration ttl;
    private final Clock clock;
    private volatile Snapshot snapshot;

    /** A catalog that reads the schema from {@code connections} directly. */
    public SchemaCatalog(QueryConnectionSource connections, Duration ttl, Clock clock) {
        this(() -> read(connections), ttl, clock);
    }

    /** A catalog whose reads go through {@code reader} (in the server: {@link CatalogReads}, with retries and a timeout). */
    public SchemaCatalog(Supplier<Map<String, TableInfo>> reader, Duration ttl, Clock clock) {
        this.reader = reader;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** Every table by its lower-case name, in name order. */
    public Map<String, TableInfo> tables() {
        return current().tables();
    }

    public Optional<TableInfo> table(String name) {
        return Optional.ofNullable(tables().get(name.toLowerCase(Locale.ROOT)));
    }

    /** The table names, as the guard needs them to tell a CTE from a table. */
    public Set<String> tableNames() {
        return tables().keySet();
    }

    public void refresh() {
        snapshot = null;
    }

    private Snapshot current() {
        Snapshot s = snapshot;
        if (s != null && clock.instant().isBefore(s.readAt().plus(ttl))) {
            return s;
        }
        synchronized (this) {
            s = snapshot;
            if (s == null || !clock.instant().isBefore(s.readAt().plus(ttl))) {
                s = new Snapshot(reader.get(), clock.instant());
                snapshot = s;
            }
            return s;
        }
    }

    /** Every table of the database behind {@code connections}, read now. */
    public static Map<String, TableInfo> read(QueryConnectionSource connections) {
        try (Connection connection = connections.open()) {
            return Collections.unmodifiableMap(new TreeMap<>(RelationshipFinder.withRelationships(CatalogReader.read(connection))));
        } catch (SQLException e) {
            throw new QueryException(QueryErrorCode.DATABASE, "无法读取数据库结构",
                    Map.of("mysql_error", String.valueOf(e.getMessage()), "mysql_errno", e.getErrorCode()), e);
        }
    }
}
