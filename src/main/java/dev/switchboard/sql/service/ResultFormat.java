package dev.switchboard.sql.service;

import dev.switchboard.platform.json.JsonProviders;
import dev.switchboard.sql.Jsons;
import dev.switchboard.sql.Params;
import dev.switchboard.sql.execute.QueryColumn;
import dev.switchboard.sql.execute.QueryResult;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The query dialect's {@code options.format}: rows as JSON objects, CSV text (RFC 4180) or an aligned text table. */
public enum ResultFormat {
    JSON, CSV, TABLE;

    public static ResultFormat of(String name) {
        for (ResultFormat f : values()) {
            if (f.name().equalsIgnoreCase(name)) {
                return f;
            }
        }
        throw Params.invalid("options.format", "format 须为 json、csv 或 table");
    }

    public JsonValue render(QueryResult result) {
        return switch (this) {
            case JSON -> objects(result);
            case CSV -> JsonProviders.JSON.createValue(csv(result));
            case TABLE -> JsonProviders.JSON.createValue(table(result));
        };
    }

    private static JsonValue objects(QueryResult result) {
        JsonArrayBuilder rows = JsonProviders.JSON.createArrayBuilder();
        for (List<Object> row : result.rows()) {
            JsonObjectBuilder object = JsonProviders.JSON.createObjectBuilder();
            for (int i = 0; i < row.size(); i++) {
                object.add(result.columns().get(i).name(), Jsons.of(row.get(i)));
            }
            rows.add(object);
        }
        return rows.build();
    }

    private static String csv(QueryResult result) {
        StringBuilder out = new StringBuilder();
        out.append(String.join(",", result.columns().stream().map(c -> csvCell(c.name())).toList())).append("\r\n");
        for (List<Object> row : result.rows()) {
            out.append(String.join(",", row.stream().map(v -> csvCell(text(v))).toList())).append("\r\n");
        }
        return out.toString();
    }

    private static String csvCell(String value) {
        boolean quote = value.contains(",") || value.contains("\"") || value.contains("\n") || value.contains("\r");
        return quote ? "\"" + value.replace("\"", "\"\"") + "\"" : value;
    }

    private static String table(QueryResult result) {
        List<String> header = result.columns().stream().map(QueryColumn::name).toList();
        List<List<String>> cells = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            cells.add(row.stream().map(ResultFormat::text).toList());
        }
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = width(header.get(i));
            for (List<String> row : cells) {
                widths[i] = Math.max(widths[i], width(row.get(i)));
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, widths);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            rule.append(i == 0 ? "" : "-+-").append("-".repeat(widths[i]));
        }
        out.append(rule).append('\n');
        cells.forEach(row -> line(out, row, widths));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> values, int[] widths) {
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i);
            out.append(i == 0 ? "" : " | ").append(v).append(" ".repeat(widths[i] - width(v)));
        }
        out.append('\n');
    }

    /** Display width: CJK characters take two columns in a terminal. */
    private static int width(String s) {
        return s.codePoints().map(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN
                || (c >= 0xFF00 && c <= 0xFFEF) ? 2 : 1).sum();
    }

    private static String text(Object value) {
        return value == null ? "NULL" : value instanceof byte[] ? "0x" + HexFormat.of().formatHex((byte[]) value)
                : value.toString();
    }
}
