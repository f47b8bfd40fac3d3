package dev.switchboard.sql.catalog;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the query database's tables through JDBC {@link DatabaseMetaData}, which gives columns, comments, keys
 * and indexes the same way on H2 and MySQL/MariaDB; only engine and charset come from MySQL's information_schema.
 * Names are lower case, as the guard and the permissions use them.
 */
final class CatalogReader {

    private static final Set<String> SIZED_TYPES = Set.of("varchar", "char", "varbinary", "binary");

    private CatalogReader() {
    }

    static Map<String, TableInfo> read(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        String catalog = connection.getCatalog();
        String schema = connection.getSchema();
        // keyed by the name as stored (metadata lookups need it), ordered by the lower-case name
        Map<String, String> comments = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        try (ResultSet rs = meta.getTables(catalog, schema, "%", new String[]{"TABLE"})) {
            while (rs.next()) {
                comments.put(rs.getString("TABLE_NAME"), nonNull(rs.getString("REMARKS")));
            }
        }
        Map<String, MysqlTableOptions> options = mysqlTableOptions(connection, meta);
        Map<String, TableInfo> tables = new LinkedHashMap<>();
        for (Map.Entry<String, String> table : comments.entrySet()) {
            String stored = table.getKey();
            String name = lower(stored);
            List<String> primaryKey = primaryKey(meta, catalog, schema, stored);
            MysqlTableOptions mysql = options.getOrDefault(name, new MysqlTableOptions(null, null, ""));
            String comment = table.getValue().isEmpty() ? mysql.comment() : table.getValue();
            tables.put(name, new TableInfo(name, comment, mysql.engine(), mysql.charset(),
                    columns(meta, catalog, schema, stored, primaryKey), indexes(meta, catalog, schema, stored, primaryKey),
                    foreignKeys(meta, catalog, schema, stored), List.of()));
        }
        return tables;
    }

    private static List<ColumnInfo> columns(DatabaseMetaData meta, String catalog, String schema, String table,
                                            List<String> primaryKey) throws SQLException {
        List<ColumnInfo> columns = new ArrayList<>();
        try (ResultSet rs = meta.getColumns(catalog, schema, table, "%")) {
            while (rs.next()) {
                String name = lower(rs.getString("COLUMN_NAME"));
                columns.add(new ColumnInfo(name,
                        mysqlType(rs.getString("TYPE_NAME"), rs.getInt("COLUMN_SIZE"), rs.getInt("DECIMAL_DIGITS")),
                        rs.getInt("NULLABLE") == DatabaseMetaData.columnNullable,
                        defaultValue(rs.getString("COLUMN_DEF")),
                        nonNull(rs.getString("REMARKS")),
                        primaryKey.contains(name),
                        "YES".equalsIgnoreCase(rs.getString("IS_AUTOINCREMENT"))));
            }
        }
        return columns;
    }

    private static List<String> primaryKey(DatabaseMetaData meta, String catalog, String schema, String table) throws SQLException {
        Map<Integer, String> columns = new TreeMap<>();
        try (ResultSet rs = meta.getPrimaryKeys(catalog, schema, table)) {
            while (rs.next()) {
                columns.put(rs.getInt("KEY_SEQ"), lower(rs.getString("COLUMN_NAME")));
            }
        }
        return List.copyOf(columns.values());
    }

    private static List<IndexInfo> indexes(DatabaseMetaData meta, String catalog, String schema, String table,
                                           List<String> primaryKey) throws SQLException {
        Map<String, Map<Integer, String>> columnsByIndex = new TreeMap<>();
        Map<String, Boolean> unique = new HashMap<>();
        try (ResultSet rs = meta.getIndexInfo(catalog, schema, table, false, false)) {
            while (rs.next()) {
                if (rs.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic || rs.getString("INDEX_NAME") == null) {
                    continue;
                }
                String index = rs.getString("INDEX_NAME");
                columnsByIndex.computeIfAbsent(index, i -> new TreeMap<>()).put((int) rs.getShort("ORDINAL_POSITION"), lower(rs.getString("COLUMN_NAME")));
                unique.put(index, !rs.getBoolean("NON_UNIQUE"));
            }
        }
        List<IndexInfo> indexes = new ArrayList<>();
        for (Map.Entry<String, Map<Integer, String>> index : columnsByIndex.entrySet()) {
            List<String> columns = List.copyOf(index.getValue().values());
            boolean isUnique = unique.get(index.getKey());
            // H2 names the primary key's index PRIMARY_KEY_<n>; MySQL calls it PRIMARY, as the dialect's examples do
            boolean isPrimary = isUnique && columns.equals(primaryKey)
                    && (index.getKey().equals("PRIMARY") || index.getKey().startsWith("PRIMARY_KEY"));
            indexes.add(isPrimary ? new IndexInfo("PRIMARY", "PRIMARY", columns, true)
                    : new IndexInfo(lower(index.getKey()), isUnique ? "UNIQUE" : "INDEX", columns, isUnique));
        }
        indexes.sort((a, b) -> a.type().equals("PRIMARY") ? -1 : b.type().equals("PRIMARY") ? 1 : a.name().compareTo(b.name()));
        return indexes;
    }

    private static List<ForeignKeyInfo> foreignKeys(DatabaseMetaData meta, String catalog, String schema, String table) throws SQLException {
        record Part(String referencedTable, String column, String referencedColumn) {
        }
        Map<String, Map<Integer, Part>> parts = new TreeMap<>();
        try (ResultSet rs = meta.getImportedKeys(catalog, schema, table)) {
            while (rs.next()) {
                parts.computeIfAbsent(lower(rs.getString("FK_NAME")), k -> new TreeMap<>()).put((int) rs.getShort("KEY_SEQ"),
                        new Part(lower(rs.getString("PKTABLE_NAME")), lower(rs.getString("FKCOLUMN_NAME")), lower(rs.getString("PKCOLUMN_NAME"))));
            }
        }
        List<ForeignKeyInfo> keys = new ArrayList<>();
        parts.forEach((name, byPosition) -> keys.add(new ForeignKeyInfo(name,
                byPosition.values().stream().map(Part::column).toList(),
                byPosition.values().iterator().next().referencedTable(),
                byPosition.values().stream().map(Part::referencedColumn).toList())));
        return keys;
    }

    private record MysqlTableOptions(String engine, String charset, String comment) {
    }

    /**
     * ENGINE, the charset of TABLE_COLLATION and TABLE_COMMENT per table (mysql-connector-j leaves the table
     * REMARKS empty); empty on databases without them.
     */
    private static Map<String, MysqlTableOptions> mysqlTableOptions(Connection connection, DatabaseMetaData meta) throws SQLException {
        Map<String, MysqlTableOptions> options = new HashMap<>();
        String product = meta.getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (!product.contains("mysql") && !product.contains("mariadb")) {
            return options;
        }
        try (PreparedStatement st = connection.prepareStatement("SELECT TABLE_NAME, ENGINE, TABLE_COLLATION, TABLE_COMMENT "
                + "FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                String collation = rs.getString(3);
                String charset = collation == null ? null : collation.split("_", 2)[0];
                options.put(lower(rs.getString(1)), new MysqlTableOptions(rs.getString(2), charset, nonNull(rs.getString(4))));
            }
        }
        return options;
    }

    /** MySQL's spelling of a JDBC type name, so both databases describe a column alike. */
    static String mysqlType(String typeName, int size, int scale) {
        String type = switch (typeName.toUpperCase(Locale.ROOT)) {
            case "CHARACTER VARYING" -> "varchar";
            case "CHARACTER" -> "char";
            case "INTEGER" -> "int";
            case "NUMERIC" -> "decimal";
            case "TIMESTAMP" -> "datetime";
            case "DOUBLE PRECISION" -> "double";
            case "REAL" -> "float";
            case "CHARACTER LARGE OBJECT" -> "text";
            case "BINARY LARGE OBJECT" -> "blob";
            default -> typeName.toLowerCase(Locale.ROOT);
        };
        if (SIZED_TYPES.contains(type)) {
            return type + "(" + size + ")";
        }
        if (type.equals("decimal")) {
            return "decimal(" + size + "," + scale + ")";
        }
        return type;
    }

    /** The default as the dialect shows it: "" for none, a string literal without its quotes, CURRENT_TIMESTAMP in one spelling. */
    static String defaultValue(String columnDef) {
        if (columnDef == null || columnDef.equalsIgnoreCase("NULL")) {
            return "";
        }
        String value = columnDef.strip();
        if (value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
            return value.substring(1, value.length() - 1).replace("''", "'");
        }
        if (value.equalsIgnoreCase("current_timestamp()") || value.equalsIgnoreCase("current_timestamp")
                || value.equalsIgnoreCase("localtimestamp")) {
            return "CURRENT_TIMESTAMP";
        }
        return value;
    }

    private static String lower(String name) {
        return name == null ? null : name.toLowerCase(Locale.ROOT);
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
