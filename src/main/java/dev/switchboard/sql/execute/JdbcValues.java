package dev.switchboard.sql.execute;

import java.sql.Clob;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;

/** Reads a result value as the same Java type on H2 and MySQL/MariaDB, whose drivers answer differently. */
final class JdbcValues {

    private JdbcValues() {
    }

    static Object read(ResultSet rs, int column) throws SQLException {
        Object value = rs.getObject(column);
        if (value instanceof Timestamp t) {
            return t.toLocalDateTime();
        }
        if (value instanceof Date d) {
            return d.toLocalDate();
        }
        if (value instanceof Time t) {
            return t.toLocalTime();
        }
        if (value instanceof Byte || value instanceof Short) {
            return ((Number) value).intValue();
        }
        if (value instanceof Clob clob) {
            return clob.getSubString(1, (int) clob.length());
        }
        return value;
    }
}
