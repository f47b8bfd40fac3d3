package dev.switchboard.sql.catalog;

import java.util.List;

/**
 * A table of the query database as the query dialect's {@code schema.info} answers it. {@code engine} and {@code charset}
 * are null where the database has no such notion (H2).
 */
public record TableInfo(String name, String comment, String engine, String charset, List<ColumnInfo> columns,
                        List<IndexInfo> indexes, List<ForeignKeyInfo> foreignKeys, List<Relationship> relationships) {

    public TableInfo {
        columns = List.copyOf(columns);
        indexes = List.copyOf(indexes);
        foreignKeys = List.copyOf(foreignKeys);
        relationships = List.copyOf(relationships);
    }

    TableInfo withRelationships(List<Relationship> relationships) {
        return new TableInfo(name, comment, engine, charset, columns, indexes, foreignKeys, relationships);
    }
}
