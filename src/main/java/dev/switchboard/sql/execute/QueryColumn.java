package dev.switchboard.sql.execute;

/** A result column: its label as the statement named it and the database's type name. */
public record QueryColumn(String name, String type) {
}
