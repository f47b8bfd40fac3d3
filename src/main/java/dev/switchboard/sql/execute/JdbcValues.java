package dev.switchboard.sql.execute;

import java.sql.Clob;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * Reads a result value as the same Java type on H2 and MySQL/MariaDB, whose drivers answer differently, and says
 * about how large its JSON rendering will be (for the response limit).
 */
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

    /**
     * About the size of the value as JSON, in UTF-8 bytes: text with its quotes (escapes not counted), bytes as
     * base64, numbers and dates as their text. Close enough to hold a limit of megabytes.
     */
    static long jsonBytes(Object value) {
        if (value == null) {
            return 4;
        }
        if (value instanceof byte[] bytes) {
            return 4L * ((bytes.length + 2) / 3) + 2;
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString().length();
        }
        String text = value.toString();
        long bytes = 2;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
        }
        return bytes;
    }
}
