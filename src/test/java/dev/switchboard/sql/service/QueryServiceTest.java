package dev.switchboard.sql.service;

import dev.switchboard.llm.LlmSettings;
import dev.switchboard.llm.OpenAiCompatibleClient;
import dev.switchboard.llm.ScriptedProvider;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.sql.Caller;
import dev.switchboard.sql.DemoQueryDatabase;
import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.catalog.SchemaCatalog;
import dev.switchboard.sql.dialect.QueryMethods;
import dev.switchboard.sql.execute.GuardedExecutor;
import dev.switchboard.sql.guard.SqlCorpus;
import dev.switchboard.sql.guard.SqlGuard;
import dev.switchboard.sql.search.SchemaSearch;
import dev.switchboard.sql.session.SessionStore;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The seed's query, schema and session methods on the demo database (H2 and MariaDB), the model played by a script. */
public class QueryServiceTest {

    static final Caller READER = new Caller("u-1", "reader", List.of("user"), Permissions.of("schema:read", "session:manage",
            "table:users:read", "table:orders:read", "table:order_items:read", "table:products:read"), Instant.MAX);

    public static ScriptedProvider provider;
    static ScheduledExecutorService scheduler;

    @BeforeAll
    public static void start() {
        provider = ScriptedProvider.start(0);
        scheduler = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterAll
    public static void stop() {
        provider.close();
        scheduler.shutdownNow();
    }

    /** Everything a test needs, on one demo database. */
    public record Fixture(DemoQueryDatabase db, QueryService query, SchemaService schema, SuggestService suggest,
                          SessionService sessions, SessionStore store) implements AutoCloseable {
        public QueryMethods methods() {
            return new QueryMethods(query, schema, suggest, sessions);
        }


        @Override
        public void close() throws Exception {
            db.close();
        }
    }

    public static Fixture fixture(TestDatabase.Kind kind) throws Exception {
        DemoQueryDatabase db = DemoQueryDatabase.open(kind);
        SchemaCatalog catalog = new SchemaCatalog(db.source(), SchemaCatalog.DEFAULT_TTL, Clock.systemUTC());
        SchemaSearch search = new SchemaSearch(catalog);
        SqlGuard guard = new SqlGuard(db.name(), catalog::tableNames, SqlCorpus.PARSER_THREADS);
        var llm = new OpenAiCompatibleClient(new LlmSettings(URI.create(provider.baseUrl()), "", "m", Duration.ofSeconds(2),
                Duration.ofSeconds(5)), Executors.newCachedThreadPool(), scheduler);
        SessionStore store = new SessionStore(sessionDatabase(), SessionStore.DEFAULT_TTL, Clock.systemUTC());
        return new Fixture(db, new QueryService(catalog, search, guard, new GuardedExecutor(db.source()), llm, store, Clock.systemUTC()),
                new SchemaService(catalog, search), new SuggestService(catalog, store), new SessionService(store), store);
    }

    /** Switchboard's own database with the query session migrations (V7, V18) applied, as sessions live there. */
    public static JdbcDataSource sessionDatabase() throws Exception {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:sessions-" + UUID.randomUUID() + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        try (Connection c = ds.getConnection()) {
            for (String file : List.of("V7__query_sessions.sql", "V18__query_session_watchers.sql")) {
                String migration = Files.readString(Path.of("src/main/resources/db/migration", file));
                for (String statement : migration.replaceAll("(?m)^--.*$", "").split(";")) {
                    if (!statement.isBlank()) {
                        c.createStatement().execute(statement);
                    }
                }
            }
        }
        return ds;
    }

    static JsonObject params(String json) {
        return Json.createReader(new java.io.StringReader(json)).readObject();
    }

    static JsonObject ask(String question, JsonObject options) {
        return Json.createObjectBuilder().add("query", question).add("options", options).build();
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void executeAsksTheModelWithOnlyTheRelevantSchemaAndRunsItsSql(TestDatabase.Kind kind) throws Exception {
        try (Fixture f = fixture(kind)) {
            Script script = provider.script(Reply.text("Here you go:\n```sql\nSELECT u.name, o.order_no FROM users u "
                    + "JOIN orders o ON o.user_id = u.id ORDER BY o.id;\n```"));
            JsonObject answer = f.query().execute(READER, ask("用户订单 " + script.key(), params("{\"limit\":5,\"explain\":true}")));
            assertTrue(answer.getBoolean("success"));
            assertEquals(5, answer.getJsonArray("data").size());
            assertTrue(answer.getJsonArray("data").getJsonObject(0).containsKey("order_no"));
            assertTrue(answer.getString("sql").toUpperCase().contains("LIMIT"), answer.getString("sql"));
            assertTrue(answer.getString("explanation").contains("users"));
            JsonObject metadata = answer.getJsonObject("metadata");
            assertEquals(5, metadata.getInt("row_count"));
            assertFalse(metadata.getBoolean("cache_hit"));
            assertTrue(metadata.getString("execution_time").matches("\\d+\\.\\d{3}s"));
            String system = script.requests().get(0).getJsonArray("messages").getJsonObject(0).getString("content");
            assertTrue(system.contains("TABLE users") && system.contains("TABLE orders"), system);
            assertFalse(system.contains("TABLE departments") || system.contains("TABLE login_logs"), "only the relevant, readable schema");

            JsonObject again = f.query().execute(READER, ask("用户订单 " + script.key(), params("{\"limit\":5,\"explain\":true}")));
            assertTrue(again.getJsonObject("metadata").getBoolean("cache_hit"));
            assertEquals(1, script.requests().size(), "a cached answer asks nobody");
        }
    }

    /** A caller's own SELECT: no model asked, the same guard, window, permissions and cache as the model's SQL. */
    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void executeRunsTheCallersOwnSqlThroughTheSameGuard(TestDatabase.Kind kind) throws Exception {
        try (Fixture f = fixture(kind)) {
            String before = f.db().checksum();
            Script model = provider.script(Reply.text("SELECT id FROM products"));
            JsonObject given = Json.createObjectBuilder().add("query", "用户订单 " + model.key()).add("sql", "SELECT u.name, o.order_no "
                    + "FROM users u JOIN orders o ON o.user_id = u.id ORDER BY o.id").add("options", params("{\"limit\":3,\"explain\":true}")).build();
            JsonObject answer = f.query().execute(READER, given);
            assertEquals(3, answer.getJsonArray("data").size());
            assertTrue(answer.getJsonArray("data").getJsonObject(0).containsKey("order_no"), answer::toString);
            assertTrue(answer.getString("sql").toUpperCase().contains("LIMIT"), answer.getString("sql"));
            assertTrue(answer.getString("explanation").contains("orders"), answer.getString("explanation"));
            assertFalse(answer.getJsonObject("metadata").getBoolean("cache_hit"));
            assertTrue(f.query().execute(READER, given).getJsonObject("metadata").getBoolean("cache_hit"));
            assertEquals(List.of(), model.requests(), "no model is asked for a given statement");

            QueryException forbidden = assertThrows(QueryException.class,
                    () -> f.query().execute(READER, params("{\"sql\":\"SELECT * FROM users WHERE id IN (SELECT user_id FROM login_logs)\"}")));
            assertEquals(QueryErrorCode.AUTHORIZATION, forbidden.code());
            assertEquals("table:login_logs:read", forbidden.data().get("required_permission"));
            QueryException write = assertThrows(QueryException.class,
                    () -> f.query().execute(READER, params("{\"sql\":\"DELETE FROM users\"}")));
            assertEquals(QueryErrorCode.QUERY, write.code());
            assertEquals("not_select", write.data().get("reason"));
            assertEquals(QueryErrorCode.INVALID_PARAMS, assertThrows(QueryException.class,
                    () -> f.query().execute(READER, params("{}"))).code(), "a question or a statement is needed");
            assertEquals(QueryErrorCode.INVALID_PARAMS, assertThrows(QueryException.class,
                    () -> f.query().execute(READER, params("{\"sql\":5}"))).code());
            assertEquals(before, f.db().checksum());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void formatsCsvAndTable(TestDatabase.Kind kind) throws Exception {
        try (Fixture f = fixture(kind)) {
            Script script = provider.script(Reply.text("SELECT id, name FROM users ORDER BY id"),
                    Reply.text("SELECT id, name FROM users ORDER BY id"));
            String csv = f.query().execute(READER, ask("用户 csv " + script.key(), params("{\"limit\":2,\"format\":\"csv\"}"))).getString("data");
            assertTrue(csv.startsWith("id,name\r\n1,"), csv);
            assertEquals(3, csv.split("\r\n").length);
            String table = f.query().execute(READER, ask("用户 table " + script.key(), params("{\"limit\":2,\"format\":\"table\"}"))).getString("data");
            assertTrue(table.startsWith("id | name"), table);
            assertEquals(QueryErrorCode.INVALID_PARAMS, assertThrows(QueryException.class,
                    () -> f.query().execute(READER, ask("用户", params("{\"format\":\"xml\"}")))).code());
            assertEquals(QueryErrorCode.INVALID_PARAMS, assertThrows(QueryException.class,
                    () -> f.query().execute(READER, ask("用户", params("{\"timeout\":301}")))).code());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void hostileOrForbiddenSqlFromTheModelIsRefusedAndChangesNothing(TestDatabase.Kind kind) throws Exception {
        try (Fixture f = fixture(kind)) {
            String before = f.db().checksum();
            Script script = provider.script(Reply.text("```sql\nDELETE FROM users\n```"),
                    Reply.text("SELECT * FROM users; DROP TABLE orders"),
                    Reply.text("SELECT * FROM users WHERE id IN (SELECT user_id FROM login_logs)"),
                    Reply.text("I cannot help with that."));
            QueryException delete = assertThrows(QueryException.class, () -> f.query().execute(READER, ask("删除用户 " + script.key(), params("{}"))));
            assertEquals(QueryErrorCode.QUERY, delete.code());
            QueryException stacked = assertThrows(QueryException.class, () -> f.query().execute(READER, ask("用户 2 " + script.key(), params("{}"))));
            assertEquals(QueryErrorCode.QUERY, stacked.code());
            QueryException forbidden = assertThrows(QueryException.class, () -> f.query().execute(READER, ask("用户 3 " + script.key(), params("{}"))));
            assertEquals(QueryErrorCode.AUTHORIZATION, forbidden.code());
            assertEquals("table:login_logs:read", forbidden.data().get("required_permission"));
            assertTrue(forbidden.data().containsKey("user_permissions"));
            QueryException prose = assertThrows(QueryException.class, () -> f.query().execute(READER, ask("用户 4 " + script.key(), params("{}"))));
            assertEquals(QueryErrorCode.QUERY, prose.code());
            assertEquals(before, f.db().checksum());
        }
    }

    /** The whole hostile corpus as the model's answer: refused with the guard's own code, nothing changes. */
    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void hostileCorpusFromTheModelIsRefused(TestDatabase.Kind kind) throws Exception {
        try (Fixture f = fixture(kind)) {
            String before = f.db().checksum();
            Caller hostile = new Caller("h", "h", List.of("user"), SqlCorpus.HOSTILE_CALLER, Instant.MAX);
            List<SqlCorpus.Hostile> corpus = SqlCorpus.hostile();
            Script script = provider.script(corpus.stream().map(h -> Reply.text("```sql\n" + h.sql() + "\n```")).toArray(Reply[]::new));
            List<String> wrong = new java.util.ArrayList<>();
            for (SqlCorpus.Hostile statement : corpus) {
                try {
                    f.query().execute(hostile, ask("用户 " + statement.line() + " " + script.key(), params("{}")));
                    wrong.add("accepted " + statement);
                } catch (QueryException e) {
                    if (e.code().code() != statement.code()) {
                        wrong.add(e.code() + " " + e.data() + " for " + statement);
                    }
                }
            }
            assertEquals(List.of(), wrong);
            assertEquals(before, f.db().checksum());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void modelFailuresAndUnknownSchemaHaveTheirCodes(TestDatabase.Kind kind) throws Exception {
        try (Fixture f = fixture(kind)) {
            Script broken = provider.script(Reply.raw(500, "application/json", "{\"error\":{\"message\":\"down\"}}"));
            QueryException llm = assertThrows(QueryException.class, () -> f.query().execute(READER, ask("用户 " + broken.key(), params("{}"))));
            assertEquals(QueryErrorCode.LLM, llm.code());
            assertEquals("failed", llm.data().get("kind"));
            QueryException schema = assertThrows(QueryException.class, () -> f.query().execute(READER, ask("zzqqxx", params("{}"))));
            assertEquals(QueryErrorCode.SCHEMA, schema.code());
            Script bad = provider.script(Reply.text("SELECT nosuchcolumn FROM users"));
            QueryException sql = assertThrows(QueryException.class, () -> f.query().execute(READER, ask("用户 " + bad.key(), params("{}"))));
            assertEquals(QueryErrorCode.SQL, sql.code());
            assertTrue(sql.data().containsKey("mysql_error") && sql.data().containsKey("mysql_errno") && sql.data().containsKey("sql"));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void explainReportsFactsFromTheParsedSql(TestDatabase.Kind kind) throws Exception {
        try (Fixture f = fixture(kind)) {
            JsonObject explained = f.query().explain(adminCaller(), params("{\"sql\":\"SELECT d.name, COUNT(e.id) AS employee_count "
                    + "FROM departments d LEFT JOIN employees e ON d.id = e.department_id GROUP BY d.id, d.name\"}"));
            assertEquals("统计聚合查询", explained.getString("intent"));
            assertEquals(List.of("departments", "employees"), explained.getJsonArray("tables").getValuesAs(jakarta.json.JsonString::getString));
            List<String> ops = explained.getJsonArray("operations").getValuesAs(jakarta.json.JsonString::getString);
            assertTrue(ops.containsAll(List.of("JOIN", "GROUP BY", "COUNT")), ops::toString);
            assertEquals("medium", explained.getString("complexity"));
            assertEquals(List.of("d.id = e.department_id"), explained.getJsonArray("conditions").getValuesAs(jakarta.json.JsonString::getString));
            assertFalse(explained.getJsonArray("suggestions").isEmpty());
            Script script = provider.script(Reply.text("SELECT name FROM users WHERE status = 1"));
            JsonObject fromQuestion = f.query().explain(READER, params("{\"query\":\"查询正常用户 " + script.key() + "\"}"));
            assertEquals("条件查询", fromQuestion.getString("intent"));
            assertEquals("simple", fromQuestion.getString("complexity"));
            assertEquals(QueryErrorCode.AUTHORIZATION, assertThrows(QueryException.class,
                    () -> f.query().explain(READER, params("{\"sql\":\"SELECT * FROM employees\"}"))).code());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void sessionsKeepHistoryFeedFollowUpsAndSuggestions(TestDatabase.Kind kind) throws Exception {
        try (Fixture f = fixture(kind)) {
            String id = f.sessions().create(READER, params("{}")).getString("session_id");
            // one script for the whole session: every prompt carries the earlier questions, and so their script key
            Script script = provider.script(Reply.text("SELECT id, name FROM users"), Reply.text("SELECT id, name FROM users LIMIT 3"),
                    Reply.text("SELECT id FROM orders ORDER BY id"), Reply.text("SELECT id FROM products ORDER BY id"));
            f.query().execute(READER, Json.createObjectBuilder().add("query", "查询用户 " + script.key()).add("session_id", id).build());
            f.query().execute(READER, Json.createObjectBuilder().add("query", "只要前三个 " + script.key()).add("session_id", id).build());
            String followUp = script.requests().get(1).getJsonArray("messages").toString();
            assertTrue(followUp.contains("查询用户 " + script.key()), "the earlier question goes with the follow-up");
            JsonObject session = f.sessions().get(READER, params("{\"session_id\":\"" + id + "\"}"));
            assertEquals(2, session.getJsonArray("history").size());
            assertTrue(session.getJsonArray("history").getJsonObject(0).getBoolean("success"));
            assertEquals("users", session.getJsonObject("context").getString("last_table"));
            assertFalse(session.getJsonObject("context").containsKey("preferred_limit"), "no limit was named yet");
            f.query().execute(READER, Json.createObjectBuilder().add("query", "订单 " + script.key()).add("session_id", id)
                    .add("options", params("{\"limit\":4}")).build());
            JsonObject followUpRows = f.query().execute(READER, Json.createObjectBuilder().add("query", "商品 " + script.key())
                    .add("session_id", id).build());
            assertEquals(4, followUpRows.getJsonArray("data").size(), "the follow-up keeps the limit named before");
            assertEquals(4, f.sessions().get(READER, params("{\"session_id\":\"" + id + "\"}"))
                    .getJsonObject("context").getInt("preferred_limit"));
            List<String> suggestions = f.suggest().suggest(READER, params("{\"partial\":\"查询用户\",\"session_id\":\"" + id + "\"}"))
                    .getJsonArray("suggestions").getValuesAs(jakarta.json.JsonString::getString);
            assertEquals(5, suggestions.size());
            assertTrue(suggestions.get(0).startsWith("查询用户 " + script.key()), suggestions::toString);
            assertTrue(suggestions.stream().allMatch(s -> s.startsWith("查询用户")), suggestions::toString);
            Caller other = new Caller("u-2", "other", List.of("user"), READER.permissions(), Instant.MAX);
            assertEquals(QueryErrorCode.SESSION, assertThrows(QueryException.class,
                    () -> f.sessions().get(other, params("{\"session_id\":\"" + id + "\"}"))).code());
            f.sessions().destroy(READER, params("{\"session_id\":\"" + id + "\"}"));
            assertEquals(QueryErrorCode.SESSION, assertThrows(QueryException.class,
                    () -> f.sessions().get(READER, params("{\"session_id\":\"" + id + "\"}"))).code());
            Caller noSessions = new Caller("u-3", "x", List.of(), Permissions.of("schema:read"), Instant.MAX);
            QueryException denied = assertThrows(QueryException.class, () -> f.sessions().create(noSessions, params("{}")));
            assertEquals("session:manage", denied.data().get("required_permission"));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void schemaInfoAndSearchAreFilteredByPermissions(TestDatabase.Kind kind) throws Exception {
        try (Fixture f = fixture(kind)) {
            JsonObject users = f.schema().info(READER, params("{\"table\":\"users\"}")).getJsonObject("table");
            assertEquals("用户信息表", users.getString("comment"));
            JsonObject id = users.getJsonArray("columns").getJsonObject(0);
            assertTrue(id.getBoolean("is_primary_key") && id.getBoolean("is_auto_increment"));
            assertEquals("", id.getString("default_value"));
            assertTrue(users.getJsonArray("relationships").toString().contains("\"to_table\":\"orders\""));
            assertEquals(QueryErrorCode.AUTHORIZATION, assertThrows(QueryException.class,
                    () -> f.schema().info(READER, params("{\"table\":\"employees\"}"))).code());
            assertEquals(QueryErrorCode.SCHEMA, assertThrows(QueryException.class,
                    () -> f.schema().info(READER, params("{\"table\":\"nope\"}"))).code());
            Set<String> listed = Set.copyOf(f.schema().info(READER, params("{}")).getJsonArray("tables").stream()
                    .map(v -> v.asJsonObject().getString("name")).toList());
            assertEquals(Set.of("users", "orders", "order_items", "products"), listed);
            JsonObject found = f.schema().search(READER, params("{\"query\":\"用户订单\"}"));
            assertFalse(found.getJsonArray("tables").toString().contains("user_profiles"));
            Caller nobody = new Caller("u-4", "n", List.of(), Permissions.of("table:users:read"), Instant.MAX);
            assertEquals(QueryErrorCode.AUTHORIZATION, assertThrows(QueryException.class,
                    () -> f.schema().search(nobody, params("{\"query\":\"用户\"}"))).code());
        }
    }

    static Caller adminCaller() {
        return new Caller("admin", "admin", List.of("admin"), Permissions.of(Permissions.ADMIN), Instant.MAX);
    }
}
