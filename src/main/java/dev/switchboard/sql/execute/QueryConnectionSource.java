package dev.switchboard.sql.execute;

import java.sql.Connection;
import java.sql.SQLException;

/** Where the query database's connections come from (a container DataSource in the server, a JDBC URL in tests). */
@FunctionalInterface
public interface QueryConnectionSource {

    Connection open() throws SQLException;
}
