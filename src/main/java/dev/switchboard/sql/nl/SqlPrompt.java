package dev.switchboard.sql.nl;

import dev.switchboard.sql.catalog.ColumnInfo;
import dev.switchboard.sql.catalog.Relationship;
import dev.switchboard.sql.catalog.TableInfo;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

import java.util.List;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The chat request that asks the model for one SELECT: the system message describes only the tables schema search
 * found relevant (never the whole database), the user message is the question itself, preceded by the session's
 * recent questions so a follow-up ("只看前 5 个") has its context.
 */
public final class SqlPrompt {

    private SqlPrompt() {
    }

    public static JsonObject request(String question, List<TableInfo> tables, List<String> earlierQuestions, String dialect) {
        JsonArrayBuilder messages = JSON.createArrayBuilder()
                .add(message("system", system(tables, dialect)));
        for (String earlier : earlierQuestions) {
            messages.add(message("user", "（之前的问题）" + earlier));
        }
        messages.add(message("user", question));
        return JSON.createObjectBuilder().add("messages", messages).add("temperature", 0).build();
    }

    static String system(List<TableInfo> tables, String dialect) {
        StringBuilder text = new StringBuilder()
                .append("You translate questions into exactly one read-only ").append(dialect)
                .append(" SELECT statement. Use only these tables and columns. Answer with the SQL in a ```sql block.\n\n");
        for (TableInfo table : tables) {
            text.append("TABLE ").append(table.name());
            if (!table.comment().isEmpty()) {
                text.append(" -- ").append(table.comment());
            }
            text.append('\n');
            for (ColumnInfo column : table.columns()) {
                text.append("  ").append(column.name()).append(' ').append(column.type());
                if (column.primaryKey()) {
                    text.append(" PRIMARY KEY");
                }
                if (!column.comment().isEmpty()) {
                    text.append(" -- ").append(column.comment());
                }
                text.append('\n');
            }
            for (Relationship r : table.relationships()) {
                if (r.fromTable().equals(table.name()) && tables.stream().anyMatch(t -> t.name().equals(r.toTable()))) {
                    text.append("  ").append(r.type()).append(": ").append(r.fromColumn()).append(" -> ")
                            .append(r.toTable()).append('.').append(r.toColumn()).append('\n');
                }
            }
        }
        return text.toString();
    }

    private static JsonObject message(String role, String content) {
        return JSON.createObjectBuilder().add("role", role).add("content", content).build();
    }
}
