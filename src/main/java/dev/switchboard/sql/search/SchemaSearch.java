package dev.switchboard.sql.search;

import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.catalog.SchemaCatalog;

import java.util.Map;

/**
 * The query dialect's {@code schema.search}: relevance-ranked tables and columns for a phrase in Chinese or English. The
 * index follows the catalog: when the catalog reads a new snapshot (cache expiry, refresh) the index is rebuilt.
 */
public final class SchemaSearch {

    public static final int DEFAULT_LIMIT = 10;
    public static final int MAX_LIMIT = 100;

    private final SchemaCatalog catalog;
    private volatile SchemaIndex index;

    public SchemaSearch(SchemaCatalog catalog) {
        this.catalog = catalog;
    }

    public SchemaHits search(String phrase, int limit, Permissions permissions) {
        if (phrase == null || phrase.isBlank()) {
            throw new QueryException(QueryErrorCode.INVALID_PARAMS, "query 不能为空", Map.of("param", "query"));
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new QueryException(QueryErrorCode.INVALID_PARAMS, "limit 须在 1 到 " + MAX_LIMIT + " 之间", Map.of("limit", limit));
        }
        return current().search(phrase, limit, permissions);
    }

    private SchemaIndex current() {
        var tables = catalog.tables();
        SchemaIndex i = index;
        if (i == null || i.tables() != tables) {
            synchronized (this) {
                i = index;
                if (i == null || i.tables() != tables) {
                    i = new SchemaIndex(tables);
                    index = i;
                }
            }
        }
        return i;
    }
}
