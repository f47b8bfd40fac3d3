package dev.switchboard.sql.catalog;

/**
 * How a table relates to another, seen from {@code fromTable}: {@code one_to_many}, {@code many_to_one} or
 * {@code one_to_one}. {@code source} says whether a foreign key declares it ({@code foreign_key}) or only the
 * column's name suggests it ({@code naming}: {@code user_id} next to a table {@code users}).
 */
public record Relationship(String type, String fromTable, String fromColumn, String toTable, String toColumn, String source) {

    public static final String FOREIGN_KEY = "foreign_key";
    public static final String NAMING = "naming";
}
