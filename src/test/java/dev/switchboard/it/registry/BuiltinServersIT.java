package dev.switchboard.it.registry;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.QueryDatabase;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The built-in demo servers a fresh server registers. {@code sqlquery}: listed by the REST API, aggregated by
 * {@code /mcp} and passed through at {@code /mcp/servers/sqlquery} (official TypeScript SDK client, which also
 * checks every structured result against the tool's output schema), used by the chat loop, with the LLM played by
 * the scripted provider and the caller's seed permissions applied. {@code knowledge}: a search of the knowledge folder.
 */
class BuiltinServersIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    static String admin;
    @RegisterExtension
    static final NewUser user = new NewUser();
    static JsonObject demo;

    @BeforeAll
    static void start() {
        Api.awaitReady();
        admin = Api.adminToken();
        demo = Api.get("/api/mcp-servers", user.token()).expect(200).json().getJsonArray("data").getValuesAs(JsonObject.class)
                .stream().filter(s -> s.getString("name").equals("sqlquery")).findFirst()
                .orElseThrow(() -> new AssertionError("no demo server 'sqlquery' in " + Api.get("/api/mcp-servers", user.token()).text()));
    }

    static JsonObject call(String name, String arguments) {
        try (var reader = Json.createReader(new StringReader(arguments))) {
            return Json.createObjectBuilder().add("op", "call").add("name", name).add("arguments", reader.readObject()).build();
        }
    }

    /** The text of a tool result's first content block, read as JSON (the tools answer JSON text). */
    static JsonObject text(JsonObject step) {
        String text = step.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text");
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    @Test
    void theDemoServerIsASharedActiveBuiltinWithItsTools() {
        assertEquals("builtin", demo.getString("type"));
        assertEquals("sqlquery", demo.getString("command"));
        assertEquals("shared", demo.getString("scope"));
        assertTrue(demo.getBoolean("isActive"));
        assertFalse(demo.containsKey("baseUrl"), demo::toString);
        long id = demo.getJsonNumber("id").longValue();
        JsonObject test = Api.post("/api/mcp-servers/" + id + "/connect", user.token(), JsonValue.EMPTY_JSON_OBJECT).expect(200).json();
        assertTrue(test.getBoolean("success"), test::toString);
        assertEquals("sqlquery", test.getJsonObject("serverInfo").getString("name"));
        List<JsonObject> tools = Api.get("/api/mcp-servers/" + id + "/tools", user.token()).expect(200).json().getJsonArray("data")
                .getValuesAs(JsonObject.class);
        assertEquals(List.of("query_execute", "query_explain", "query_suggest", "schema_info", "schema_search",
                "session_create", "session_get", "session_destroy"), tools.stream().map(t -> t.getString("name")).toList());
        assertEquals("mcp__sqlquery__query_execute", tools.get(0).getString("displayName"));
    }

    @Test
    void theGatewayListsAndCallsSqlqueryToolsWithTheCallersPermissions() throws Exception {
        JsonArray listed = GatewayClient.run(user.token(), Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "listAll"))
                .add(call("sqlquery__schema_search", "{\"query\":\"用户订单\",\"limit\":10}"))
                .build()).getJsonArray("steps");
        // the query database is filled on first use, which the search was
        String before = QueryDatabase.fingerprint();
        // a slow model: the IT server reports progress every 0.5 s
        Script sql = provider.script(Reply.text("```sql\nSELECT u.name, o.order_no FROM users u JOIN orders o ON o.user_id = u.id ORDER BY o.id\n```").delay(1300));
        Script delete = provider.script(Reply.text("```sql\nDELETE FROM orders\n```"));
        JsonArray called = GatewayClient.run(user.token(), Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "listAll"))
                .add(Json.createObjectBuilder(call("sqlquery__query_execute", "{\"query\":\"用户订单 " + sql.key()
                        + "\",\"options\":{\"limit\":3}}")).add("progress", true))
                .add(call("sqlquery__query_execute", "{\"query\":\"删除订单 " + delete.key() + "\"}"))
                .add(call("sqlquery__schema_info", "{\"table\":\"employees\"}"))
                .build()).getJsonArray("steps");
        JsonArray steps = Json.createArrayBuilder().add(listed.get(0)).add(listed.get(1))
                .add(called.get(1)).add(called.get(2)).add(called.get(3)).build();

        List<String> names = steps.getJsonObject(0).getJsonArray("names").getValuesAs(JsonString::getString);
        assertTrue(names.containsAll(List.of("sqlquery__query_execute", "sqlquery__query_explain", "sqlquery__query_suggest",
                "sqlquery__schema_info", "sqlquery__schema_search", "sqlquery__session_create", "sqlquery__session_get",
                "sqlquery__session_destroy")), names::toString);

        JsonObject search = steps.getJsonObject(1);
        assertFalse(search.containsKey("error"), search::toString);
        JsonObject found = search.getJsonObject("result").getJsonObject("structuredContent");
        List<String> tables = found.getJsonArray("tables").getValuesAs(JsonObject.class).stream().map(t -> t.getString("name")).toList();
        assertEquals(List.of("orders", "users"), tables.subList(0, 2).stream().sorted().toList(), tables::toString);

        JsonObject executed = steps.getJsonObject(2);
        assertFalse(executed.containsKey("error"), executed::toString);
        JsonObject answer = executed.getJsonObject("result").getJsonObject("structuredContent");
        assertFalse(executed.getJsonObject("result").getBoolean("isError"));
        assertEquals(3, answer.getJsonArray("data").size(), answer::toString);
        assertTrue(answer.getString("sql").startsWith("SELECT u.name, o.order_no FROM users u JOIN orders o"), answer::toString);
        List<JsonObject> progress = executed.getJsonArray("progress").getValuesAs(JsonObject.class);
        assertTrue(progress.size() >= 2, executed::toString);
        assertTrue(progress.get(1).getJsonNumber("progress").doubleValue() > progress.get(0).getJsonNumber("progress").doubleValue());
        assertEquals(30, progress.get(0).getInt("total"), "seconds out of the query's timeout");

        // a refused statement is the tool's own failure (isError), carrying the seed's error object as its text
        JsonObject refused = steps.getJsonObject(3);
        assertTrue(refused.getJsonObject("result").getBoolean("isError"), refused::toString);
        assertFalse(refused.getJsonObject("result").containsKey("structuredContent"));
        JsonObject error = text(refused).getJsonObject("error");
        assertEquals(-31006, error.getInt("code"), error::toString);
        assertEquals("not_select", error.getJsonObject("data").getString("reason"), error::toString);
        assertEquals(before, QueryDatabase.fingerprint(), "the query database is unchanged");

        // the IT server's role mapping lets users read four tables; employees is not one of them
        JsonObject forbidden = text(steps.getJsonObject(4)).getJsonObject("error");
        assertEquals(-31001, forbidden.getInt("code"));
        assertEquals("table:employees:read", forbidden.getJsonObject("data").getString("required_permission"));
        assertFalse(forbidden.getJsonObject("data").getJsonArray("user_permissions").toString().contains("admin:*"));
    }

    @Test
    void anAdminReadsEveryTableAndThePassthroughServesTheToolsUnprefixed() {
        JsonArray steps = GatewayClient.runScript("gateway-client.mjs", Api.BASE + "/mcp/servers/sqlquery", admin,
                Json.createArrayBuilder().add(Json.createObjectBuilder().add("op", "listAll"))
                        .add(call("schema_info", "{\"table\":\"employees\"}")).build()).getJsonArray("steps");
        assertTrue(steps.getJsonObject(0).getJsonArray("names").getValuesAs(JsonString::getString).contains("query_execute"),
                steps::toString);
        JsonObject info = steps.getJsonObject(1).getJsonObject("result");
        assertFalse(info.getBoolean("isError"), info::toString);
        assertEquals("employees", info.getJsonObject("structuredContent").getJsonObject("table").getString("name"));
    }

    @Test
    void theChatLoopRunsAnNlToSqlQuestionThroughTheBuiltinServer() {
        String name = Names.unique("sq");
        long server = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", name).add("type", "builtin")
                .add("command", "sqlquery").add("autoApproveTools", Json.createArrayBuilder().add("query_execute")).build())
                .expect(201).json().getJsonNumber("id").longValue();
        long assistant = Chat.assistant(admin, server);
        Script sql = provider.script(Reply.text("SELECT name FROM departments ORDER BY id"));
        Script chat = provider.script(Reply.tools(new ToolCall("q1", "mcp__" + name + "__query_execute",
                "{\"query\":\"部门 " + sql.key() + "\",\"options\":{\"limit\":2,\"format\":\"csv\"}}")), Reply.text("two departments"));
        JsonObject answer = Api.post("/api/chat/completions", admin, Json.createObjectBuilder().add("assistant_id", assistant)
                .add("messages", Json.createArrayBuilder().add(Chat.user("which departments? " + chat.key()))).build())
                .expect(200).json();
        assertEquals("two departments", answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));
        String toolResult = chat.requests().get(1).getJsonArray("messages").getValuesAs(JsonObject.class).stream()
                .filter(m -> "tool".equals(m.getString("role"))).findFirst().orElseThrow().getString("content");
        assertTrue(toolResult.contains("SELECT name FROM departments ORDER BY id"), toolResult);
        assertEquals(1, sql.requests().size(), "the tool asked the model for the SQL");
        Api.delete("/api/mcp-servers/" + server, admin).expect(204);
    }

    @Test
    void theKnowledgeServerSearchesTheKnowledgeFolder() throws Exception {
        String word = "quibblex" + UUID.randomUUID().toString().substring(0, 6);
        Path folder = Path.of(System.getProperty("it.knowledge.dir", "target/it-knowledge"));
        Files.createDirectories(folder);
        Path document = folder.resolve("builtin-" + word + ".md");
        Files.writeString(document, "# Backups\n\nThe " + word + " database is backed up every night at two.\n");
        try {
            Instant deadline = Instant.now().plusSeconds(30);
            // wait for this file itself: pieces of the word (identifier parts, bigrams) may match other documents
            while (!Api.get("/api/knowledge/search?q=" + word, user.token()).expect(200).text().contains(document.getFileName().toString())) {
                assertTrue(Instant.now().isBefore(deadline), "the knowledge index picked up the new document");
                Thread.sleep(300);
            }
            JsonArray steps = GatewayClient.run(user.token(), Json.createArrayBuilder()
                    .add(Json.createObjectBuilder().add("op", "listAll"))
                    .add(call("knowledge__search", "{\"query\":\"when is " + word + " backed up\",\"limit\":2}"))
                    .add(call("knowledge__search", "{\"query\":\"\"}")).build()).getJsonArray("steps");
            JsonObject found = steps.getJsonObject(1).getJsonObject("result");
            assertFalse(found.getBoolean("isError"), found::toString);
            JsonObject hit = found.getJsonObject("structuredContent").getJsonArray("data").getJsonObject(0);
            assertEquals("builtin-" + word + ".md", hit.getString("source"));
            assertTrue(hit.getString("snippet").contains("every night at two"), hit::toString);
            JsonObject empty = steps.getJsonObject(2).getJsonObject("result");
            assertTrue(empty.getBoolean("isError"), empty::toString);
            assertEquals("'query' must be text of 1 to 1000 characters",
                    empty.getJsonArray("content").getJsonObject(0).getString("text"));
        } finally {
            Files.deleteIfExists(document);
        }
    }

    @Test
    void onlyAdminsRegisterBuiltinServersAndOnlyKnownOnes() {
        Api.Reply byUser = Api.post("/api/mcp-servers", user.token(), Json.createObjectBuilder().add("name", "mine").add("type", "builtin")
                .add("command", "sqlquery").build()).expect(403);
        assertEquals("builtin_requires_admin", byUser.errorCode());
        Api.Reply unknown = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", Names.unique("bi"))
                .add("type", "builtin").add("command", "nosuch").build()).expect(400);
        assertEquals("invalid_command", unknown.errorCode());
        assertEquals("'command' must name a built-in server: one of knowledge, sqlquery", unknown.errorMessage());
        Api.Reply withUrl = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", Names.unique("bi"))
                .add("type", "builtin").add("command", "sqlquery").add("baseUrl", "http://x/mcp").build()).expect(400);
        assertEquals("invalid_field", withUrl.errorCode());
        Api.Reply turned = Api.put("/api/mcp-servers/" + demo.getJsonNumber("id"), user.token(),
                Json.createObjectBuilder().add("isActive", false).build()).expect(403);
        assertEquals("not_owner", turned.errorCode(), "a user cannot switch the shared demo server off");
    }
}
