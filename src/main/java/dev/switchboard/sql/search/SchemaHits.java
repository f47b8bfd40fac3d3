package dev.switchboard.sql.search;

import java.util.List;

/** What {@code schema.search} answers: tables and columns, best first, each with a relevance in [0,1]. */
public record SchemaHits(List<TableHit> tables, List<ColumnHit> columns) {

    public record TableHit(String name, String comment, double relevance) {
    }

    public record ColumnHit(String table, String column, String comment, double relevance) {
    }

    public SchemaHits {
        tables = List.copyOf(tables);
        columns = List.copyOf(columns);
    }
}
