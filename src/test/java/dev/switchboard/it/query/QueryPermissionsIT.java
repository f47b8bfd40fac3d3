package dev.switchboard.it.query;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.Leftovers;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.StringReader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.switchboard.it.query.QueryTcpClient.code;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table permissions granted and revoked by admins ({@code /api/query/permissions}), end to end: a grant opens a table
 * on every way into the query service and a revocation closes it again with seed 000's -31001 and its
 * {@code required_permission}, at the next request of a connection already open; a grant to role user applies to
 * every user of its tenant and to nobody of another tenant; only admins grant, and a tenant's admin only there. The
 * IT server's role user reads users, orders, order_items and products ({@code query.role.user} in pom.xml), never
 * employees.
 */
class QueryPermissionsIT {

    static final String EMPLOYEES = "table:employees:read";
    static final String SQL = "SELECT name FROM employees ORDER BY id";

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final Leftovers leftovers = new Leftovers();

    static String admin;

    @BeforeAll
    static void start() {
        admin = Api.adminToken();
    }

    /** A new local user of {@code tenant} with {@code role}: its name and token. */
    record User(String name, String token) {
    }

    static User user(String tenant, String role) {
        String name = Names.unique("perm");
        Api.post("/api/users", admin, Json.createObjectBuilder().add("username", name).add("password", "password-" + name)
                .add("role", role).add("tenant", tenant).build()).expect(201);
        leftovers.user(name);
        return new User(name, Api.login(name, "password-" + name));
    }

    static Api.Reply grantAs(String token, String body) {
        return Api.post("/api/query/permissions", token, json(body));
    }

    static Api.Reply revokeAs(String token, String query) {
        return Api.delete("/api/query/permissions?" + query, token);
    }

    static String enc(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** JSON written with single quotes, for readable bodies in this test. */
    static JsonObject json(String text) {
        return parse(text.replace('\'', '"'));
    }

    static JsonObject parse(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    static List<String> readableTables(String token) {
        return Api.get("/api/query/schema/tables", token).expect(200).json().getJsonArray("tables")
                .getValuesAs(JsonValue::asJsonObject).stream().map(t -> t.getString("name")).sorted().toList();
    }

    static JsonObject executeSql() {
        return Json.createObjectBuilder().add("sql", SQL).add("options", Json.createObjectBuilder().add("limit", 2)).build();
    }

    /** The sqlquery tool through /mcp (the official TypeScript SDK client). */
    static JsonObject toolCall(String token) {
        JsonObject step = GatewayClient.run(token, Json.createArrayBuilder().add(Json.createObjectBuilder().add("op", "call")
                .add("name", "sqlquery__query_execute").add("arguments", executeSql())).build()).getJsonArray("steps").getJsonObject(0);
        assertFalse(step.containsKey("error"), step::toString);
        return step.getJsonObject("result");
    }

    static JsonObject toolError(JsonObject result) {
        assertTrue(result.getBoolean("isError"), result::toString);
        return parse(result.getJsonArray("content").getJsonObject(0).getString("text")).getJsonObject("error");
    }

    /** What the chat loop's call of the sqlquery server {@code server} told the model: the tool message of call {@code q}. */
    static String chatToolResult(String token, long assistant, String server) {
        Script chat = provider.script(Reply.tools(new ToolCall("q", "mcp__" + server + "__query_execute", executeSql().toString())),
                Reply.text("done"));
        Api.post("/api/chat/completions", token, Json.createObjectBuilder().add("assistant_id", assistant)
                .add("messages", Json.createArrayBuilder().add(Chat.user("employees? " + chat.key()))).build()).expect(200);
        return Chat.toolMessage(chat.requests().get(1).getJsonArray("messages"), "q");
    }

    @Test
    void aGrantToAUserOpensATableOnEveryWayInAndARevocationClosesIt() throws Exception {
        User dora = user("default", "user");
        // the chat loop's way: a sqlquery server the admin shares with the default tenant, its query tool auto-approved
        String sqlquery = Names.unique("sqperm");
        long server = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", sqlquery).add("type", "builtin")
                .add("command", "sqlquery").add("scope", "shared").add("autoApproveTools", Json.createArrayBuilder().add("query_execute"))
                .build()).expect(201).json().getJsonNumber("id").longValue();
        leftovers.server(server);
        long assistant = Chat.assistant(dora.token(), server);
        leftovers.assistant(assistant);

        try (QueryTcpClient tcp = new QueryTcpClient().ready(dora.token()); QuerySocketClient socket = new QuerySocketClient()) {
            socket.result("protocol.negotiate", QueryTcpClient.params("{\"versions\":[\"1.0.0\"]}"));
            socket.result("auth.authenticate", Json.createObjectBuilder().add("token", dora.token()).build());

            JsonObject refused = tcp.call("query.execute", executeSql());
            assertEquals(-31001, code(refused), refused::toString);
            assertEquals(EMPLOYEES, refused.getJsonObject("error").getJsonObject("data").getString("required_permission"));
            assertFalse(refused.getJsonObject("error").getJsonObject("data").getJsonArray("user_permissions").toString().contains(EMPLOYEES));
            assertEquals(EMPLOYEES, toolError(toolCall(dora.token())).getJsonObject("data").getString("required_permission"));
            assertTrue(chatToolResult(dora.token(), assistant, sqlquery).contains(EMPLOYEES), "the model was told what is missing");
            JsonObject forbidden = Api.get("/api/query/schema/tables/employees", dora.token()).expect(403).json().getJsonObject("error");
            assertEquals("query_forbidden", forbidden.getString("code"));
            assertEquals(-31001, forbidden.getInt("seedCode"));
            assertEquals(EMPLOYEES, forbidden.getJsonObject("details").getString("required_permission"));
            assertFalse(readableTables(dora.token()).contains("employees"));

            JsonObject granted = grantAs(admin, "{'user':'" + dora.name() + "','permission':'Table:Employees:Read'}").expect(201).json();
            assertEquals(dora.name(), granted.getString("user"));
            assertEquals("default", granted.getString("tenant"));
            assertEquals(EMPLOYEES, granted.getString("permission"));
            assertEquals("admin", granted.getString("grantedBy"));
            JsonObject again = grantAs(admin, "{'user':'" + dora.name() + "','permission':'" + EMPLOYEES + "'}").expect(200).json();
            assertEquals(granted.getString("grantedAt"), again.getString("grantedAt"), "granting twice changes nothing");

            // the connections opened before the grant read it at their next request
            JsonObject rows = tcp.result("query.execute", executeSql());
            assertEquals(2, rows.getJsonArray("data").size(), rows::toString);
            assertEquals(2, socket.result("query.execute", executeSql()).getJsonArray("data").size());
            JsonObject viaTool = toolCall(dora.token());
            assertFalse(viaTool.getBoolean("isError"), viaTool::toString);
            assertEquals(2, viaTool.getJsonObject("structuredContent").getJsonArray("data").size());
            assertTrue(chatToolResult(dora.token(), assistant, sqlquery).contains("\"row_count\":2"), "the chat loop's call ran");
            Script question = provider.script(Reply.text("```sql\nSELECT name, salary FROM employees\n```"));
            JsonObject answer = Api.post("/api/query/execute", dora.token(), Json.createObjectBuilder()
                    .add("question", "员工 工资 " + question.key()).add("limit", 2).build()).expect(200).json();
            assertEquals(List.of("name", "salary"), answer.getJsonArray("columns").getValuesAs(JsonString::getString));
            assertTrue(readableTables(dora.token()).contains("employees"), "the schema browser lists it now");
            JsonObject seen = Api.get("/api/query/permissions/effective?user=" + dora.name(), admin).expect(200).json();
            assertTrue(seen.getJsonArray("permissions").getValuesAs(JsonString::getString).containsAll(
                    List.of(EMPLOYEES, "table:users:read", "schema:read")), seen::toString);

            revokeAs(admin, "user=" + dora.name() + "&permission=" + enc(EMPLOYEES)).expect(204);
            JsonObject closed = tcp.call("query.execute", executeSql());
            assertEquals(-31001, code(closed), closed::toString);
            assertEquals(EMPLOYEES, closed.getJsonObject("error").getJsonObject("data").getString("required_permission"));
            assertEquals(-31001, code(socket.call("query.execute", executeSql())));
            JsonObject toolRefusal = toolError(toolCall(dora.token()));
            assertEquals(-31001, toolRefusal.getInt("code"));
            assertEquals(EMPLOYEES, toolRefusal.getJsonObject("data").getString("required_permission"));
            assertTrue(chatToolResult(dora.token(), assistant, sqlquery).contains(EMPLOYEES));
            Script again2 = provider.script(Reply.text("```sql\nSELECT name, salary FROM employees\n```"));
            JsonObject restRefusal = Api.post("/api/query/execute", dora.token(), Json.createObjectBuilder()
                    .add("question", "员工 工资 " + again2.key()).build()).expect(403).json().getJsonObject("error");
            assertEquals(EMPLOYEES, restRefusal.getJsonObject("details").getString("required_permission"));
            assertFalse(readableTables(dora.token()).contains("employees"));
            assertEquals("grant_not_found", revokeAs(admin, "user=" + dora.name() + "&permission=" + enc(EMPLOYEES))
                    .expect(404).errorCode());
        }
    }

    @Test
    void aGrantToRoleUserAppliesToItsTenantsUsersAndToNoOtherTenant() throws Exception {
        String acme = Names.unique("acme");
        String globex = Names.unique("globex");
        User alice = user(acme, "user");
        User bob = user(acme, "user");
        User carol = user(globex, "user");
        List<String> defaults = List.of("order_items", "orders", "products", "users");
        assertEquals(defaults, readableTables(alice.token()));

        JsonObject before = Api.get("/api/query/permissions?tenant=" + acme, admin).expect(200).json();
        assertEquals(6, before.getInt("total"), before::toString);
        assertTrue(before.getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .allMatch(g -> g.getString("role").equals("user") && g.getString("source").equals("default")), before::toString);

        grantAs(admin, "{'tenant':'" + acme + "','role':'user','permission':'" + EMPLOYEES + "'}").expect(201);
        revokeAs(admin, "tenant=" + acme + "&role=user&permission=" + enc("table:products:read")).expect(204);
        List<String> narrowed = List.of("employees", "order_items", "orders", "users");
        assertEquals(narrowed, readableTables(alice.token()));
        assertEquals(narrowed, readableTables(bob.token()));
        assertEquals(defaults, readableTables(carol.token()), "acme's grants do not reach globex");
        try (QueryTcpClient tcp = new QueryTcpClient().ready(bob.token())) {
            assertEquals(2, tcp.result("query.execute", executeSql()).getJsonArray("data").size());
            JsonObject products = tcp.call("query.execute", json("{'sql':'SELECT name FROM products'}"));
            assertEquals("table:products:read", products.getJsonObject("error").getJsonObject("data").getString("required_permission"));
        }
        try (QueryTcpClient tcp = new QueryTcpClient().ready(carol.token())) {
            assertEquals(-31001, code(tcp.call("query.execute", executeSql())));
        }

        // the role's grants are the admin's now: its old default is listed as grants taken from query.role.user
        grantAs(admin, "{'user':'" + alice.name() + "','permission':'session:manage'}").expect(201);
        grantAs(admin, "{'user':'" + alice.name() + "','permission':'table:login_logs:read'}").expect(201);
        JsonObject after = Api.get("/api/query/permissions?tenant=" + acme, admin).expect(200).json();
        assertEquals(8, after.getInt("total"), after::toString);
        List<JsonObject> all = after.getJsonArray("data").getValuesAs(JsonObject.class);
        assertEquals(List.of("role user schema:read query.role.user", "role user session:manage query.role.user",
                        "role user table:employees:read admin", "role user table:order_items:read query.role.user",
                        "role user table:orders:read query.role.user", "role user table:users:read query.role.user",
                        "user " + alice.name() + " session:manage admin", "user " + alice.name() + " table:login_logs:read admin"),
                all.stream().map(g -> (g.containsKey("role") ? "role " + g.getString("role") : "user " + g.getString("user"))
                        + " " + g.getString("permission") + " " + g.getString("grantedBy")).toList());
        JsonObject page = Api.get("/api/query/permissions?tenant=" + acme + "&offset=5&limit=2", admin).expect(200).json();
        assertEquals(List.of("table:users:read", "session:manage"), page.getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .map(g -> g.getString("permission")).toList(), "a page across the role's and the users' grants");
        assertEquals(2, Api.get("/api/query/permissions?user=" + alice.name(), admin).expect(200).json().getInt("total"));
        assertEquals(6, Api.get("/api/query/permissions?tenant=" + acme + "&role=user", admin).expect(200).json().getInt("total"));
        assertEquals(6, Api.get("/api/query/permissions?tenant=" + globex, admin).expect(200).json().getInt("total"),
                "globex still holds the default");

        List<String> alices = Api.get("/api/query/permissions/effective?user=" + alice.name(), admin).expect(200).json()
                .getJsonArray("permissions").getValuesAs(JsonString::getString);
        assertTrue(alices.containsAll(List.of("table:login_logs:read", EMPLOYEES)) && !alices.contains("table:products:read"), alices::toString);
        List<String> bobs = Api.get("/api/query/permissions/effective?user=" + bob.name(), admin).expect(200).json()
                .getJsonArray("permissions").getValuesAs(JsonString::getString);
        assertFalse(bobs.contains("table:login_logs:read"), "alice's grant is hers alone");
    }

    @Test
    void onlyAdminsGrantAndATenantsAdminOnlyInItsTenant() {
        String acme = Names.unique("acme");
        String globex = Names.unique("globex");
        User user = user(acme, "user");
        User acmeAdmin = user(acme, "admin");
        User carol = user(globex, "user");

        JsonObject refused = grantAs(user.token(), "{'user':'" + user.name() + "','permission':'" + EMPLOYEES + "'}").expect(403).json();
        assertEquals("permission_error", refused.getJsonObject("error").getString("type"));
        assertEquals("forbidden", refused.getJsonObject("error").getString("code"));
        assertEquals("forbidden", Api.get("/api/query/permissions", user.token()).expect(403).errorCode());
        assertEquals("forbidden", revokeAs(user.token(), "role=user&permission=schema:read").expect(403).errorCode());
        assertFalse(readableTables(user.token()).contains("employees"));

        assertEquals(201, grantAs(acmeAdmin.token(), "{'user':'" + user.name() + "','permission':'" + EMPLOYEES + "'}").status());
        assertEquals(acme, Api.get("/api/query/permissions", acmeAdmin.token()).expect(200).json().getString("tenant"),
                "a tenant's admin sees its own tenant by default");
        assertEquals("tenant_forbidden", grantAs(acmeAdmin.token(), "{'tenant':'" + globex + "','role':'user','permission':'"
                + EMPLOYEES + "'}").expect(403).errorCode());
        assertEquals("tenant_forbidden", Api.get("/api/query/permissions?tenant=" + globex, acmeAdmin.token()).expect(403).errorCode());
        assertEquals("unknown_user", grantAs(acmeAdmin.token(), "{'user':'" + carol.name() + "','permission':'" + EMPLOYEES + "'}")
                .expect(400).errorCode(), "another tenant's users are unknown to a tenant's admin");
        assertFalse(readableTables(carol.token()).contains("employees"));
    }

    @Test
    void badGrantsSayWhatIsWrong() {
        String nobody = Names.unique("nobody");
        Api.Reply unknownUser = grantAs(admin, "{'user':'" + nobody + "','permission':'schema:read'}").expect(400);
        assertEquals("unknown_user", unknownUser.errorCode());
        assertTrue(unknownUser.errorMessage().contains(nobody), unknownUser.errorMessage());
        assertEquals("unknown_role", grantAs(admin, "{'role':'guest','permission':'schema:read'}").expect(400).errorCode());
        Api.Reply adminRole = grantAs(admin, "{'role':'admin','permission':'schema:read'}").expect(400);
        assertEquals("unknown_role", adminRole.errorCode());
        assertTrue(adminRole.errorMessage().contains("admin:*"), adminRole.errorMessage());
        Api.Reply table = grantAs(admin, "{'role':'user','permission':'table:nope:read'}").expect(400);
        assertEquals("unknown_table", table.errorCode());
        assertTrue(table.errorMessage().contains("'nope'"), table.errorMessage());
        Api.Reply write = grantAs(admin, "{'role':'user','permission':'table:orders:write'}").expect(400);
        assertEquals("invalid_permission", write.errorCode());
        assertTrue(write.errorMessage().contains("read-only"), write.errorMessage());
        assertEquals("invalid_permission", grantAs(admin, "{'role':'user','permission':'everything'}").expect(400).errorCode());
        assertEquals("invalid_grantee", grantAs(admin, "{'role':'user','user':'admin','permission':'schema:read'}").expect(400).errorCode());
        assertEquals("missing_field", grantAs(admin, "{'permission':'schema:read'}").expect(400).errorCode());
        assertEquals("invalid_tenant", grantAs(admin, "{'tenant':'no spaces','role':'user','permission':'schema:read'}").expect(400).errorCode());
        assertEquals("invalid_filter", Api.get("/api/query/permissions?user=admin&role=user", admin).expect(400).errorCode());
        assertEquals("invalid_limit", Api.get("/api/query/permissions?limit=0", admin).expect(400).errorCode());
        assertEquals("missing_field", revokeAs(admin, "role=user").expect(400).errorCode());
        assertEquals("missing_field", Api.get("/api/query/permissions/effective", admin).expect(400).errorCode());
    }
}
