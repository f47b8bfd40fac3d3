package dev.switchboard.sql.catalog;

/**
 * A column as the query dialect's {@code schema.info} describes it. {@code type} is MySQL's spelling on both databases
 * ({@code bigint}, {@code varchar(100)}, {@code decimal(10,2)}); {@code defaultValue} is "" when there is none.
 */
public record ColumnInfo(String name, String type, boolean nullable, String defaultValue, String comment,
                         boolean primaryKey, boolean autoIncrement) {
}
