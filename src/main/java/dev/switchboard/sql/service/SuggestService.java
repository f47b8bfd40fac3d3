package dev.switchboard.sql.service;

import dev.switchboard.sql.Caller;
import dev.switchboard.sql.Params;
import dev.switchboard.sql.catalog.ColumnInfo;
import dev.switchboard.sql.catalog.SchemaCatalog;
import dev.switchboard.sql.catalog.TableInfo;
import dev.switchboard.sql.session.SessionStore;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The query dialect's {@code query.suggest}, without a model: completions of a partial question from the session's earlier
 * questions (most recent first), then templates over the comments of the tables the caller may read
 * ("查询用户信息", "查询用户信息的邮箱地址", "统计用户信息的数量"). Prefix matches come before matches inside.
 */
public final class SuggestService {

    public static final int DEFAULT_LIMIT = 5;
    static final int MAX_LIMIT = 50;

    private final SchemaCatalog catalog;
    private final SessionStore sessions;

    public SuggestService(SchemaCatalog catalog, SessionStore sessions) {
        this.catalog = catalog;
        this.sessions = sessions;
    }

    public JsonObject suggest(Caller caller, JsonObject params) {
        String partial = Params.requiredString(params, "partial").strip();
        int limit = Params.optionalInt(params, "limit", DEFAULT_LIMIT);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw Params.invalid("limit", "limit 须在 1 到 " + MAX_LIMIT + " 之间");
        }
        String sessionId = Params.optionalString(params, "session_id", null);
        List<String> candidates = new ArrayList<>();
        if (sessionId != null) {
            List<JsonValue> history = new ArrayList<>(sessions.touch(sessionId, caller.userId()).history());
            for (int i = history.size() - 1; i >= 0; i--) {
                candidates.add(history.get(i).asJsonObject().getString("query", ""));
            }
        }
        for (TableInfo table : catalog.tables().values()) {
            if (caller.permissions().canRead(table.name())) {
                candidates.addAll(templates(table));
            }
        }
        Set<String> chosen = new LinkedHashSet<>();
        candidates.stream().filter(c -> c.startsWith(partial) && !c.equals(partial)).forEach(chosen::add);
        candidates.stream().filter(c -> c.contains(partial) && !c.equals(partial)).forEach(chosen::add);
        JsonArrayBuilder out = JSON.createArrayBuilder();
        chosen.stream().limit(limit).forEach(out::add);
        return JSON.createObjectBuilder().add("suggestions", out).build();
    }

    /** "用户信息表" -> the thing the table holds, "用户信息". */
    static String subject(TableInfo table) {
        String comment = table.comment().isBlank() ? table.name() : table.comment().strip();
        return comment.endsWith("表") && comment.length() > 1 ? comment.substring(0, comment.length() - 1) : comment;
    }

    private static List<String> templates(TableInfo table) {
        String subject = subject(table);
        List<String> out = new ArrayList<>();
        out.add("查询" + subject);
        out.add("查询所有" + subject);
        for (ColumnInfo column : table.columns()) {
            if (!column.comment().isBlank() && !column.primaryKey()) {
                out.add("查询" + subject + "的" + column.comment());
            }
        }
        out.add("统计" + subject + "的数量");
        return out;
    }
}
