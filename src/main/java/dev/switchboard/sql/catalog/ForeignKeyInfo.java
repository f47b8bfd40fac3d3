package dev.switchboard.sql.catalog;

import java.util.List;

/** A declared foreign key of a table: its columns and the table and columns they reference. */
public record ForeignKeyInfo(String name, List<String> columns, String referencedTable, List<String> referencedColumns) {

    public ForeignKeyInfo {
        columns = List.copyOf(columns);
        referencedColumns = List.copyOf(referencedColumns);
    }
}
