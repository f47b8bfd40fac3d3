package dev.switchboard.it.query;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.QueryDatabase;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /api/query} on the running server: a question turned into SQL by the scripted model and answered with rows,
 * SQL the guard refuses answered with its reason, a table the caller may not read refused with the permission it
 * needs, and schema search with comments, all with the caller's seed-000 permissions (users of the IT server may read
 * users, orders, order_items and products only: {@code query.role.user} in pom.xml).
 */
class QueryApiIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final NewUser user = new NewUser();
    static String admin;

    @BeforeAll
    static void start() {
        admin = Api.adminToken();
    }

    static JsonObject ask(String question, int limit) {
        return Json.createObjectBuilder().add("question", question).add("limit", limit).build();
    }

    @Test
    void aQuestionBecomesGuardedSqlAndRows() throws Exception {
        String before = QueryDatabase.fingerprint();
        Script script = provider.script(Reply.text("```sql\nSELECT u.name, o.order_no FROM users u JOIN orders o ON o.user_id = u.id ORDER BY o.id\n```"));
        JsonObject answer = Api.post("/api/query/execute", user.token(), ask("用户订单 " + script.key(), 3)).expect(200).json();
        assertTrue(answer.getBoolean("success"));
        // the guard reads one row more than asked for, to know whether there are more
        assertTrue(answer.getString("sql").matches("(?s)SELECT u\\.name, o\\.order_no FROM users u JOIN orders o .* LIMIT 4"),
                () -> "the guard's rendering with the row window: " + answer.getString("sql"));
        assertEquals(List.of("name", "order_no"), answer.getJsonArray("columns").getValuesAs(JsonString::getString));
        assertEquals(3, answer.getJsonArray("data").size());
        assertFalse(answer.getJsonArray("data").getJsonObject(0).getString("order_no").isBlank());
        assertTrue(answer.getString("explanation").contains("users"), () -> "explained: " + answer.getString("explanation"));
        JsonObject metadata = answer.getJsonObject("metadata");
        assertEquals(3, metadata.getInt("row_count"));
        assertTrue(metadata.getBoolean("truncated"), "more orders than the 3 asked for");
        assertTrue(metadata.getString("execution_time").matches("\\d+\\.\\d{3}s"), metadata::toString);
        String prompt = script.requests().get(0).getJsonArray("messages").toString();
        assertFalse(prompt.contains("TABLE employees"), "the prompt holds only tables the user may read");
        assertEquals(before, QueryDatabase.fingerprint());
    }

    @Test
    void destructiveSqlFromTheModelIsRefusedWithTheGuardsReason() throws Exception {
        String before = QueryDatabase.fingerprint();
        Script script = provider.script(Reply.text("```sql\nDELETE FROM orders\n```"));
        Api.Reply refused = Api.post("/api/query/execute", admin, ask("删除订单 " + script.key(), 10)).expect(422);
        JsonObject error = refused.json().getJsonObject("error");
        assertEquals("query_refused", error.getString("code"));
        assertEquals("The SQL was refused (not_select): 查询被拒绝：只允许 SELECT 查询，收到 Delete", error.getString("message"));
        assertEquals(-31006, error.getInt("seedCode"));
        assertEquals("not_select", error.getJsonObject("details").getString("reason"));
        assertEquals("DELETE FROM orders", error.getJsonObject("details").getString("sql"));
        assertEquals(before, QueryDatabase.fingerprint(), "nothing was deleted");
    }

    @Test
    void aTableTheUserMayNotReadIsRefusedWithThePermissionItNeeds() {
        String sql = "```sql\nSELECT name, salary FROM employees\n```";
        Script forUser = provider.script(Reply.text(sql));
        JsonObject error = Api.post("/api/query/execute", user.token(), ask("用户 工资 " + forUser.key(), 10)).expect(403).json().getJsonObject("error");
        assertEquals("query_forbidden", error.getString("code"));
        assertEquals("You may not read this: 权限不足", error.getString("message"));
        assertEquals("table:employees:read", error.getJsonObject("details").getString("required_permission"));
        assertFalse(error.getJsonObject("details").getJsonArray("user_permissions").getValuesAs(JsonString::getString)
                .contains("table:employees:read"));

        Script forAdmin = provider.script(Reply.text(sql));
        JsonObject answer = Api.post("/api/query/execute", admin, ask("员工 工资 " + forAdmin.key(), 2)).expect(200).json();
        assertEquals(List.of("name", "salary"), answer.getJsonArray("columns").getValuesAs(JsonString::getString));

        Api.get("/api/query/schema/tables/employees", user.token()).expect(403);
        Api.get("/api/query/schema/tables/employees", admin).expect(200);
        assertEquals("schema_not_found", Api.get("/api/query/schema/tables/nope", admin).expect(422).errorCode());
    }

    @Test
    void badRequestsSayWhatToFix() {
        assertEquals("missing_field", Api.post("/api/query/execute", user.token(), Json.createObjectBuilder().build()).expect(400).errorCode());
        assertEquals("invalid_type", Api.post("/api/query/execute", user.token(), Json.createObjectBuilder().add("question", 42).build())
                .expect(400).errorCode());
        assertEquals("question_too_long", Api.post("/api/query/execute", user.token(),
                Json.createObjectBuilder().add("question", "x".repeat(2001)).build()).expect(400).errorCode());
        JsonObject limit = Api.post("/api/query/execute", user.token(), Json.createObjectBuilder().add("question", "用户")
                .add("limit", 0).build()).expect(400).json().getJsonObject("error");
        assertEquals("invalid_params", limit.getString("code"));
        assertEquals("missing_field", Api.get("/api/query/schema/search", user.token()).expect(400).errorCode());
        Api.post("/api/query/execute", null, ask("用户", 1)).expect(401);
    }

    @Test
    void schemaSearchShowsReadableTablesAndColumnsWithComments() {
        JsonObject found = Api.get("/api/query/schema/search?q=%E8%AE%A2%E5%8D%95%E9%87%91%E9%A2%9D", user.token()).expect(200).json(); // 订单金额
        JsonObject first = found.getJsonArray("tables").getJsonObject(0);
        assertTrue(List.of("orders", "order_items").contains(first.getString("name")), found::toString);
        assertFalse(first.getString("comment").isBlank());
        assertTrue(found.getJsonArray("columns").getValuesAs(JsonObject.class).stream()
                .anyMatch(c -> c.getString("table").startsWith("order") && !c.getString("comment").isBlank()), found::toString);

        List<String> readable = Api.get("/api/query/schema/tables", user.token()).expect(200).json().getJsonArray("tables")
                .getValuesAs(JsonValue::asJsonObject).stream().map(t -> t.getString("name")).toList();
        assertEquals(List.of("order_items", "orders", "products", "users"), readable.stream().sorted().toList());
        JsonObject users = Api.get("/api/query/schema/tables/users", user.token()).expect(200).json().getJsonObject("table");
        assertEquals("用户信息表", users.getString("comment"));
    }
}
