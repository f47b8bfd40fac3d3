package dev.switchboard.sql.service;

import dev.switchboard.llm.LlmClient;
import dev.switchboard.llm.LlmException;
import dev.switchboard.sql.Caller;
import dev.switchboard.sql.Params;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.catalog.SchemaCatalog;
import dev.switchboard.sql.catalog.TableInfo;
import dev.switchboard.sql.execute.GuardedExecutor;
import dev.switchboard.sql.execute.QueryResult;
import dev.switchboard.sql.explain.SqlFacts;
import dev.switchboard.sql.guard.GuardedSql;
import dev.switchboard.sql.guard.RowWindow;
import dev.switchboard.sql.guard.SqlGuard;
import dev.switchboard.sql.nl.SqlExtractor;
import dev.switchboard.sql.nl.SqlPrompt;
import dev.switchboard.sql.search.SchemaSearch;
import dev.switchboard.sql.session.QuerySession;
import dev.switchboard.sql.session.SessionStore;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The query dialect's {@code query.execute} and {@code query.explain}: find the schema the question needs (schema search,
 * never the whole database), ask the model for one SELECT over just that, extract it, guard it, run it. The facts
 * {@code query.explain} reports come from parsing the statement, not from the model. Both also take a caller's own
 * {@code sql} instead of a question (beyond the dialect): it goes through the same guard, with the caller's permissions,
 * as the model's SQL would, so an agent that read the schema can run its SELECT without a model.
 */
public final class QueryService {

    public static final int DEFAULT_TIMEOUT_SECONDS = 30;
    /** How many tables of the search go into the prompt. */
    static final int PROMPT_TABLES = 5;
    /** How many earlier questions of the session go into the prompt. */
    static final int PROMPT_HISTORY = 3;

    private final SchemaCatalog catalog;
    private final SchemaSearch search;
    private final SqlGuard guard;
    private final GuardedExecutor executor;
    private final LlmClient llm;
    private final SessionStore sessions;
    private final ResultCache cache;
    private final Clock clock;

    public QueryService(SchemaCatalog catalog, SchemaSearch search, SqlGuard guard, GuardedExecutor executor, LlmClient llm,
                        SessionStore sessions, Clock clock) {
        this.catalog = catalog;
        this.search = search;
        this.guard = guard;
        this.executor = executor;
        this.llm = llm;
        this.sessions = sessions;
        this.cache = new ResultCache(ResultCache.DEFAULT_TTL, clock);
        this.clock = clock;
    }

    public JsonObject execute(Caller caller, JsonObject params) {
        String given = Params.optionalString(params, "sql", null);
        String question = given == null ? Params.requiredString(params, "query") : Params.optionalString(params, "query", "");
        JsonObject options = Params.optionalObject(params, "options");
        String sessionId = Params.optionalString(params, "session_id", null);
        QuerySession session = sessionId == null ? null : sessions.touch(sessionId, caller.userId());
        int preferredLimit = session == null ? RowWindow.DEFAULT.limit()
                : session.context().getInt("preferred_limit", RowWindow.DEFAULT.limit());
        RowWindow window = new RowWindow(Params.optionalInt(options, "offset", 0), Params.optionalInt(options, "limit", preferredLimit));
        // a limit the caller names becomes the session's preferred one, for the follow-ups that name none
        Integer namedLimit = options.containsKey("limit") ? window.limit() : null;
        ResultFormat format = ResultFormat.of(Params.optionalString(options, "format", "json"));
        boolean explain = Params.optionalBoolean(options, "explain", false);
        int timeout = Params.optionalInt(options, "timeout", DEFAULT_TIMEOUT_SECONDS);
        // the dialect's optimize flag is accepted and type-checked; what runs is always the guard's rendering
        Params.optionalBoolean(options, "optimize", true);
        if (timeout < 1 || timeout > GuardedExecutor.MAX_TIMEOUT_SECONDS) {
            throw Params.invalid("options.timeout", "timeout 须在 1 到 " + GuardedExecutor.MAX_TIMEOUT_SECONDS + " 秒之间");
        }
        // a question's SQL depends on the session's earlier questions; a given statement on nothing but itself
        ResultCache.Key cacheKey = new ResultCache.Key(given == null ? question : given, given != null, window, format,
                explain, caller.permissions(), given == null ? history(session) : List.of());
        var cached = cache.get(cacheKey);
        if (cached.isPresent()) {
            remember(session, question, cached.get().getString("sql"), true, null, namedLimit);
            return withCacheHit(cached.get(), true);
        }
        String sql = null;
        try {
            sql = given != null ? given : generate(caller, question, history(session));
            GuardedSql guarded = guard.check(sql, caller.permissions(), window);
            QueryResult result = executor.execute(guarded, timeout);
            JsonObjectBuilder answer = JSON.createObjectBuilder().add("success", true)
                    .add("data", format.render(result)).add("sql", guarded.sql());
            if (explain) {
                answer.add("explanation", Explanations.of(SqlFacts.of(sql), result.rowCount()));
            }
            answer.add("metadata", JSON.createObjectBuilder()
                    .add("execution_time", String.format(Locale.ROOT, "%.3fs", result.executionTime().toNanos() / 1e9))
                    .add("row_count", result.rowCount()).add("truncated", result.truncated()).add("cache_hit", false));
            JsonObject built = answer.build();
            cache.put(cacheKey, built);
            remember(session, question, guarded.sql(), true, lastTable(guarded), namedLimit);
            return built;
        } catch (QueryException e) {
            remember(session, question, sql, false, null, namedLimit);
            throw e;
        }
    }

    public JsonObject explain(Caller caller, JsonObject params) {
        String given = Params.optionalString(params, "sql", null);
        String question = given == null ? Params.requiredString(params, "query") : Params.optionalString(params, "query", "");
        String sql = given != null ? given : generate(caller, question, List.of());
        guard.check(sql, caller.permissions(), RowWindow.DEFAULT);
        SqlFacts facts = SqlFacts.of(sql);
        var suggestions = JSON.createArrayBuilder();
        Explanations.suggestions(facts, sql).forEach(suggestions::add);
        return JSON.createObjectBuilder()
                .add("intent", Explanations.intent(facts))
                .add("tables", JSON.createArrayBuilder(facts.tables()))
                .add("columns", JSON.createArrayBuilder(facts.columns()))
                .add("conditions", JSON.createArrayBuilder(facts.conditions()))
                .add("operations", JSON.createArrayBuilder(facts.operations()))
                .add("complexity", facts.complexity())
                .add("sql", sql)
                .add("explanation", Explanations.of(facts, -1))
                .add("suggestions", suggestions)
                .build();
    }

    /**
     * The model's SQL for the question, from a prompt that holds only the tables schema search found for it; the
     * search also reads the session's earlier questions, so a follow-up without table words finds their tables.
     */
    private String generate(Caller caller, String question, List<String> earlier) {
        List<TableInfo> tables = new ArrayList<>();
        String phrase = question + (earlier.isEmpty() ? "" : " " + String.join(" ", earlier));
        search.search(phrase, PROMPT_TABLES, caller.permissions()).tables()
                .forEach(hit -> catalog.table(hit.name()).ifPresent(tables::add));
        if (tables.isEmpty()) {
            throw new QueryException(QueryErrorCode.SCHEMA, "没有找到与问题相关的表", Map.of("query", question));
        }
        String answer;
        try {
            answer = llm.complete(SqlPrompt.request(question, tables, earlier, "MySQL")).content();
        } catch (LlmException e) {
            throw new QueryException(QueryErrorCode.LLM, "大语言模型调用失败",
                    Params.data("kind", e.kind().name().toLowerCase(Locale.ROOT), "reason", String.valueOf(e.getMessage())), e);
        }
        return SqlExtractor.extract(answer).orElseThrow(() -> new QueryException(QueryErrorCode.QUERY,
                "模型没有给出 SQL", Map.of("reason", "no_sql", "answer", answer)));
    }

    private static List<String> history(QuerySession session) {
        if (session == null) {
            return List.of();
        }
        List<String> questions = session.history().stream().map(v -> v.asJsonObject().getString("query", ""))
                .filter(q -> !q.isEmpty()).toList();
        return questions.subList(Math.max(0, questions.size() - PROMPT_HISTORY), questions.size());
    }

    /** One history entry; the context keeps the last table read and the preferred limit (null: unchanged). */
    private void remember(QuerySession session, String question, String sql, boolean success, String lastTable,
                          Integer preferredLimit) {
        if (session == null) {
            return;
        }
        JsonObjectBuilder entry = JSON.createObjectBuilder().add("query", question)
                .add("sql", sql == null ? JsonValue.NULL : JSON.createValue(sql))
                .add("timestamp", clock.instant().toString()).add("success", success);
        JsonObjectBuilder context = JSON.createObjectBuilder(session.context());
        if (lastTable != null) {
            context.add("last_table", lastTable);
        }
        if (preferredLimit != null) {
            context.add("preferred_limit", preferredLimit);
        }
        sessions.record(session.id(), entry.build(), context.build());
    }

    private static String lastTable(GuardedSql guarded) {
        return guarded.tables().stream().sorted().findFirst().orElse(null);
    }

    private static JsonObject withCacheHit(JsonObject result, boolean hit) {
        JsonObjectBuilder metadata = JSON.createObjectBuilder(result.getJsonObject("metadata")).add("cache_hit", hit);
        return JSON.createObjectBuilder(result).add("metadata", metadata).build();
    }
}
