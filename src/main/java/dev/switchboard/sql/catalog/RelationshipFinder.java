package dev.switchboard.sql.catalog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Relationships between tables, each listed on both of its tables: from declared single-column foreign keys, and
 * from {@code *_id} columns without one ({@code employees.user_id} -> {@code users.id}) when a table of that name
 * (singular or plural) has a single-column primary key. A referencing column with a unique index makes the pair
 * one_to_one; otherwise the referenced side is one_to_many and the referencing side many_to_one.
 */
final class RelationshipFinder {

    private record Link(String table, String column, String referencedTable, String referencedColumn, String source) {
    }

    private RelationshipFinder() {
    }

    static Map<String, TableInfo> withRelationships(Map<String, TableInfo> tables) {
        List<Link> links = new ArrayList<>();
        for (TableInfo table : tables.values()) {
            for (ForeignKeyInfo key : table.foreignKeys()) {
                if (key.columns().size() == 1) {
                    links.add(new Link(table.name(), key.columns().get(0), key.referencedTable(), key.referencedColumns().get(0),
                            Relationship.FOREIGN_KEY));
                }
            }
            for (ColumnInfo column : table.columns()) {
                boolean declared = table.foreignKeys().stream().anyMatch(k -> k.columns().contains(column.name()));
                if (!declared && column.name().endsWith("_id")) {
                    namedTarget(tables, column.name()).ifPresent(target -> links.add(new Link(table.name(), column.name(),
                            target.name(), primaryKey(target).orElseThrow(), Relationship.NAMING)));
                }
            }
        }
        Map<String, List<Relationship>> byTable = new HashMap<>();
        for (Link link : links) {
            boolean oneToOne = isUnique(tables.get(link.table()), link.column());
            byTable.computeIfAbsent(link.referencedTable(), t -> new ArrayList<>()).add(new Relationship(
                    oneToOne ? "one_to_one" : "one_to_many", link.referencedTable(), link.referencedColumn(), link.table(), link.column(), link.source()));
            byTable.computeIfAbsent(link.table(), t -> new ArrayList<>()).add(new Relationship(
                    oneToOne ? "one_to_one" : "many_to_one", link.table(), link.column(), link.referencedTable(), link.referencedColumn(), link.source()));
        }
        Map<String, TableInfo> result = new LinkedHashMap<>();
        tables.forEach((name, table) -> result.put(name, table.withRelationships(byTable.getOrDefault(name, List.of()))));
        return result;
    }

    /** {@code user_id} -> users, user; {@code category_id} -> categories. */
    private static Optional<TableInfo> namedTarget(Map<String, TableInfo> tables, String column) {
        String stem = column.substring(0, column.length() - "_id".length());
        if (stem.isEmpty()) {
            return Optional.empty();
        }
        List<String> candidates = new ArrayList<>(List.of(stem + "s", stem + "es", stem));
        if (stem.endsWith("y")) {
            candidates.add(0, stem.substring(0, stem.length() - 1) + "ies");
        }
        return candidates.stream().map(tables::get).filter(t -> t != null && primaryKey(t).isPresent()).findFirst();
    }

    private static Optional<String> primaryKey(TableInfo table) {
        List<String> key = table.columns().stream().filter(ColumnInfo::primaryKey).map(ColumnInfo::name).toList();
        return key.size() == 1 ? Optional.of(key.get(0)) : Optional.empty();
    }

    private static boolean isUnique(TableInfo table, String column) {
        return table.indexes().stream().anyMatch(i -> i.unique() && i.columns().equals(List.of(column)));
    }
}
