package dev.switchboard.it.query;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.QueryDatabase;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.it.support.ServerDatabase;
import dev.switchboard.it.support.Tokens;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static dev.switchboard.it.query.QueryTcpClient.code;
import static dev.switchboard.it.query.QueryTcpClient.params;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 000's dialect over the running server's TCP transport: negotiation, authentication with a token of
 * /api/auth/token, schema search, NL->SQL with the scripted model (and hostile SQL from it refused), sessions,
 * error codes and per-connection limits.
 */
class QueryDialectIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final NewUser user = new NewUser();

    static JsonObject ask(String question, String options) {
        return Json.createObjectBuilder().add("query", question).add("options", params(options)).build();
    }

    @Test
    void negotiateAuthenticateSearchAndQuery() throws Exception {
        try (QueryTcpClient client = new QueryTcpClient()) {
            assertEquals(-32001, code(client.call("protocol.negotiate", params("{\"versions\":[\"0.9\"]}"))));
            JsonObject negotiated = client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
            assertEquals("1.0.0", negotiated.getString("version"));
            assertEquals(-31000, code(client.call("schema.search", params("{\"query\":\"用户订单\"}"))));
            JsonObject auth = client.result("auth.authenticate", Json.createObjectBuilder().add("token", user.token()).build());
            List<String> permissions = auth.getJsonObject("user").getJsonArray("permissions").getValuesAs(JsonString::getString);
            assertTrue(permissions.contains("table:users:read") && !permissions.contains("table:employees:read"), permissions::toString);

            JsonObject found = client.result("schema.search", params("{\"query\":\"用户订单\",\"limit\":10}"));
            List<String> tables = found.getJsonArray("tables").stream().map(v -> v.asJsonObject().getString("name")).toList();
            assertEquals(List.of("orders", "users"), tables.subList(0, 2).stream().sorted().toList(), tables::toString);
            JsonObject column = found.getJsonArray("columns").getJsonObject(0);
            assertEquals("orders.user_id", column.getString("table") + "." + column.getString("column"));

            JsonObject info = client.result("schema.info", params("{\"table\":\"users\"}")).getJsonObject("table");
            assertEquals("用户信息表", info.getString("comment"));
            assertEquals(-31001, code(client.call("schema.info", params("{\"table\":\"employees\"}"))));
            assertEquals(-31005, code(client.call("schema.info", params("{\"table\":\"nope\"}"))));

            Script script = provider.script(Reply.text("```sql\nSELECT u.name, o.order_no FROM users u JOIN orders o ON o.user_id = u.id ORDER BY o.id\n```"));
            JsonObject answer = client.result("query.execute", ask("用户订单 " + script.key(), "{\"limit\":3,\"explain\":true}"));
            assertTrue(answer.getBoolean("success"));
            assertEquals(3, answer.getJsonArray("data").size());
            assertTrue(answer.getString("explanation").contains("users"));
            assertEquals(3, answer.getJsonObject("metadata").getInt("row_count"));
            assertFalse(answer.getJsonObject("metadata").getBoolean("cache_hit"));
            String system = script.requests().get(0).getJsonArray("messages").getJsonObject(0).getString("content");
            assertFalse(system.contains("TABLE employees"), "the prompt holds only relevant, readable tables");
            JsonObject again = client.result("query.execute", ask("用户订单 " + script.key(), "{\"limit\":3,\"explain\":true}"));
            assertTrue(again.getJsonObject("metadata").getBoolean("cache_hit"));

            JsonObject explained = client.result("query.explain", params("{\"sql\":\"SELECT status, COUNT(*) FROM orders GROUP BY status\"}"));
            assertTrue(explained.getJsonArray("operations").getValuesAs(JsonString::getString).containsAll(List.of("GROUP BY", "COUNT")));
            JsonObject suggested = client.result("query.suggest", params("{\"partial\":\"查询用户\",\"limit\":3}"));
            assertEquals(3, suggested.getJsonArray("suggestions").size());
        }
    }

    @Test
    void hostileSqlFromTheModelIsRefusedAndTheDatabaseStaysTheSame() throws Exception {
        try (QueryTcpClient client = new QueryTcpClient().ready(user.token())) {
            client.result("schema.info", params("{}"));
            String before = QueryDatabase.fingerprint();
            Script script = provider.script(Reply.text("```sql\nDELETE FROM orders\n```"),
                    Reply.text("```sql\nSELECT * FROM users; DROP TABLE users\n```"),
                    Reply.text("```sql\nSELECT name FROM users UNION SELECT ip FROM login_logs\n```"),
                    Reply.text("```sql\nSELECT nosuch FROM users\n```"));
            JsonObject delete = client.call("query.execute", ask("删除订单 " + script.key(), "{}"));
            assertEquals(-31006, code(delete));
            assertEquals(-31006, code(client.call("query.execute", ask("用户 " + script.key(), "{}"))));
            JsonObject forbidden = client.call("query.execute", ask("用户 登录 " + script.key(), "{}"));
            assertEquals(-31001, code(forbidden));
            assertEquals("table:login_logs:read", forbidden.getJsonObject("error").getJsonObject("data").getString("required_permission"));
            JsonObject sqlError = client.call("query.execute", ask("用户 错误 " + script.key(), "{}"));
            assertEquals(-31004, code(sqlError));
            assertTrue(sqlError.getJsonObject("error").getJsonObject("data").containsKey("mysql_errno"));
            Script down = provider.script(Reply.raw(500, "application/json", "{\"error\":{\"message\":\"down\"}}"));
            assertEquals(-31007, code(client.call("query.execute", ask("用户 " + down.key(), "{}"))));
            assertEquals(before, QueryDatabase.fingerprint());
        }
    }

    @Test
    void sessionsAndErrorCodes() throws Exception {
        try (QueryTcpClient client = new QueryTcpClient().ready(user.token())) {
            String id = client.result("session.create", params("{}")).getString("session_id");
            Script script = provider.script(Reply.text("SELECT id, name FROM users ORDER BY id"));
            client.result("query.execute", Json.createObjectBuilder().add("query", "查询用户 " + script.key()).add("session_id", id)
                    .add("options", params("{\"limit\":2,\"format\":\"csv\"}")).build());
            JsonObject session = client.result("session.get", Json.createObjectBuilder().add("session_id", id).build());
            assertEquals(1, session.getJsonArray("history").size());
            assertEquals("users", session.getJsonObject("context").getString("last_table"));
            assertTrue(client.result("session.destroy", Json.createObjectBuilder().add("session_id", id).build()).getBoolean("success"));
            assertEquals(-31002, code(client.call("session.get", Json.createObjectBuilder().add("session_id", id).build())));

            assertEquals(-32601, code(client.call("no.such.method", params("{}"))));
            assertEquals(-32602, code(client.call("query.execute", params("{}"))));
            assertEquals(-32602, code(client.call("query.execute", ask("用户", "{\"timeout\":301}"))));
            client.sendLine("{broken");
            assertEquals(-32700, code(client.read()));
            client.sendLine("{\"type\":\"request\",\"id\":\"no-method\"}");
            assertEquals(-32600, code(client.answer("no-method")));
        }
        try (QueryTcpClient client = new QueryTcpClient()) {
            client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
            assertEquals(-31000, code(client.call("auth.authenticate", params("{\"token\":\"not.a.token\"}"))));
        }
    }

    static String refusalReason(String token) throws Exception {
        try (QueryTcpClient client = new QueryTcpClient()) {
            client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
            JsonObject answer = client.call("auth.authenticate", Json.createObjectBuilder().add("token", token).build());
            assertEquals(-31000, code(answer), answer::toString);
            return answer.getJsonObject("error").getJsonObject("data").getString("reason");
        }
    }

    /**
     * The server's one verification path for tokens outside MicroProfile JWT, over the TCP transport: what the
     * signature cannot tell (a revoked API key, a deleted user) and headers the old hand-written check ignored.
     */
    @Test
    void revokedKeysDeletedUsersNbfCritAndAlgNoneAreRefused() throws Exception {
        String admin = Api.adminToken();
        String name = "dialect-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        Api.post("/api/users", admin, Json.createObjectBuilder().add("username", name).add("password", "password-" + name)
                .add("role", "user").add("tenant", "default").build()).expect(201);
        String token = Api.login(name, "password-" + name);
        JsonObject created = Api.post("/api/api-keys", token, Json.createObjectBuilder().add("name", "dialect").build()).expect(201).json();
        String key = created.getString("key");
        try (QueryTcpClient client = new QueryTcpClient()) {
            client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
            assertTrue(client.result("auth.authenticate", Json.createObjectBuilder().add("token", key).build()).getBoolean("success"),
                    "an active API key authenticates");
        }
        Api.delete("/api/api-keys/" + created.getJsonNumber("id"), token).expect(204);
        assertEquals("API 密钥已被吊销", refusalReason(key));
        Api.delete("/api/users/" + name, admin).expect(204);
        assertEquals("令牌所属用户已被删除或停用", refusalReason(token), "a deleted user's access token, still unexpired");

        long now = java.time.Instant.now().getEpochSecond();
        assertEquals("访问令牌尚未生效", refusalReason(Tokens.signedByServer(Tokens.claims("admin", "admin", "user").add("nbf", now + 3600).build())));
        assertEquals("令牌含无法处理的关键头部参数（crit）", refusalReason(Tokens.signedByServerWithCriticalHeader(Tokens.claims("admin", "admin", "user").build())));
        String none = Tokens.b64("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes()) + "."
                + Tokens.b64(Tokens.claims("admin", "admin", "user").build().toString().getBytes()) + ".";
        assertEquals("不支持的签名算法", refusalReason(none));
        assertEquals("令牌受众不匹配", refusalReason(Tokens.signedByServer(Tokens.claims("admin", "admin", "user").add("aud", "other").build())));
        assertEquals("未知的签名密钥", refusalReason(Tokens.signedByForeignKeyAndKid(Tokens.claims("admin", "admin", "user").build())));
        assertTrue(refusalReason(Tokens.signedByServer(Tokens.claims("admin", "admin", "user").add("exp", now - 600).build()))
                .equals("访问令牌已过期"));
    }

    @Test
    void tenRequestsAtOnceAndProgressWhileTheyRun() throws Exception {
        try (QueryTcpClient client = new QueryTcpClient().ready(user.token())) {
            Script slow = provider.script(java.util.stream.IntStream.range(0, 10)
                    .mapToObj(i -> Reply.text("SELECT id FROM users WHERE id = " + (i + 1)).delay(1500)).toArray(Reply[]::new));
            List<String> ids = new java.util.ArrayList<>();
            for (int i = 0; i < 10; i++) {
                ids.add(client.send("query.execute", ask("用户 " + i + " " + slow.key(), "{}")));
            }
            JsonObject eleventh = client.call("schema.info", params("{}"));
            assertEquals(-32003, code(eleventh));
            assertEquals(10, eleventh.getJsonObject("error").getJsonObject("data").getInt("max_concurrent_requests"));
            for (String id : ids) {
                assertTrue(client.answer(id).containsKey("result"), id);
            }
            JsonObject progress = client.other.stream().filter(m -> "query.progress".equals(m.getString("method", "")))
                    .findFirst().orElseThrow(() -> new AssertionError("no query.progress in " + client.other));
            assertEquals("notification", progress.getString("type"));
            assertTrue(ids.contains(progress.getJsonObject("params").getString("query_id")));
            assertTrue(progress.getJsonObject("params").getJsonNumber("elapsed").doubleValue() > 0);
            client.result("schema.info", params("{}"));
        }
    }

    @Test
    void adminsBroadcastSystemStatusAndRefreshTheSchema() throws Exception {
        try (QueryTcpClient client = new QueryTcpClient()) {
            client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
            JsonObject status = params("{\"status\":\"maintenance\",\"message\":\"系统将在 5 分钟后进入维护模式\","
                    + "\"scheduled_at\":\"2030-01-20T12:00:00Z\"}");
            assertEquals("forbidden", Api.post("/api/query/system-status", user.token(), status).expect(403).errorCode());
            assertEquals(400, Api.post("/api/query/system-status", Api.adminToken(), params("{\"message\":\"x\"}")).status());
            assertTrue(Api.post("/api/query/system-status", Api.adminToken(), status).expect(200).json().getInt("delivered") >= 1);
            assertEquals("forbidden", Api.post("/api/query/schema/refresh", user.token(), params("{}")).expect(403).errorCode());
            assertEquals(8, Api.post("/api/query/schema/refresh", Api.adminToken(), params("{}")).expect(200).json().getInt("tables"));
            JsonObject note = client.read();
            assertEquals("system.status", note.getString("method"));
            assertEquals("maintenance", note.getJsonObject("params").getString("status"));
            assertEquals("2030-01-20T12:00:00Z", note.getJsonObject("params").getString("scheduled_at"));
        }
    }

    @Test
    void requestsPerMinuteArePerConnection() throws Exception {
        try (QueryTcpClient client = new QueryTcpClient()) {
            for (int i = 0; i < 100; i++) {
                client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
            }
            JsonObject limited = client.call("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
            assertEquals(-32003, code(limited));
            assertEquals(100, limited.getJsonObject("error").getJsonObject("data").getInt("limit"));
            try (QueryTcpClient fresh = new QueryTcpClient()) {
                fresh.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
            }
        }
    }
}
