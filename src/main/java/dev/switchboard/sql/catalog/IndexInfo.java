package dev.switchboard.sql.catalog;

import java.util.List;

/** An index: {@code type} is {@code PRIMARY}, {@code UNIQUE} or {@code INDEX}; the primary key's index is named {@code PRIMARY}. */
public record IndexInfo(String name, String type, List<String> columns, boolean unique) {

    public IndexInfo {
        columns = List.copyOf(columns);
    }
}
