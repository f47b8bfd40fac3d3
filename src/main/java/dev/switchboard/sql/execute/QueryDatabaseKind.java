package dev.switchboard.sql.execute;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * The query database's kind, for what JDBC cannot say portably: how the server itself stops a statement that
 * runs too long (the JDBC timeout alone only asks the driver to cancel it), and how a read-only transaction is
 * opened so that the server, not only the driver, refuses writes.
 */
public enum QueryDatabaseKind {
    /** Embedded: the JDBC query timeout is enforced inside the database. */
    H2,
    /** {@code SET STATEMENT max_statement_time=N FOR ...} (MariaDB 10.1+). */
    MARIADB,
    /** {@code SELECT /*+ MAX_EXECUTION_TIME(ms) *}{@code / ...} (MySQL 5.7.8+). */
    MYSQL;

    public static QueryDatabaseKind of(DatabaseMetaData metaData) throws SQLException {
        String product = metaData.getDatabaseProductName().toLowerCase(Locale.ROOT);
        String version = metaData.getDatabaseProductVersion().toLowerCase(Locale.ROOT);
        if (product.contains("h2")) {
            return H2;
        }
        // MariaDB answers "MySQL" with a version like 5.5.5-10.11.19-MariaDB to mysql-connector-j
        if (product.contains("mariadb") || version.contains("mariadb")) {
            return MARIADB;
        }
        if (product.contains("mysql")) {
            return MYSQL;
        }
        throw new SQLException("unsupported query database: " + metaData.getDatabaseProductName());
    }

    /**
     * Opens the transaction the statement runs in, read-only where the server can enforce it. On MySQL and MariaDB
     * that is {@code START TRANSACTION READ ONLY}: {@link Connection#setReadOnly} is not enough there, because
     * mysql-connector-j takes MariaDB (which announces itself as 5.5.5-...) for a MySQL older than 5.6.5 and then
     * only checks statement texts on the client (checked in {@code GuardedExecutorTest}); it also saves the
     * {@code autocommit} round trips. H2 is embedded: its read-only flag and the rollback are what it has.
     */
    public void begin(Connection connection) throws SQLException {
        if (this == H2) {
            connection.setAutoCommit(false);
            connection.setReadOnly(true);
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("START TRANSACTION READ ONLY");
        }
    }

    /** Ends what {@link #begin} opened; nothing it did is kept. */
    public void end(Connection connection) throws SQLException {
        if (this == H2) {
            connection.rollback();
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("ROLLBACK");
        }
    }

    /** The statement with the server-side time limit attached where the server offers one. */
    public String withServerTimeout(String select, int seconds) {
        return switch (this) {
            case H2 -> select;
            case MARIADB -> "SET STATEMENT max_statement_time=" + seconds + " FOR " + select;
            // the hint is only honoured right after the outermost SELECT keyword
            case MYSQL -> select.regionMatches(true, 0, "SELECT ", 0, 7)
                    ? "SELECT /*+ MAX_EXECUTION_TIME(" + seconds * 1000L + ") */ " + select.substring(7)
                    : select;
        };
    }
}
