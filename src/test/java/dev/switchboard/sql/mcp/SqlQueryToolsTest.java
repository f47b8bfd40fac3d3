package dev.switchboard.sql.mcp;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.sql.Caller;
import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.service.QueryServiceTest;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sqlquery tool surface: valid MCP tool definitions with annotations, results that match their output schemas. */
class SqlQueryToolsTest {

    static final Path MCP_SCHEMA = Path.of(System.getProperty("switchboard.schema.dir", "src/test/resources/mcp-schema"), "2025-11-25", "schema.json")
            .toAbsolutePath().normalize();
    static final Caller READER = new Caller("u-9", "reader", List.of("user"), Permissions.of("schema:read", "session:manage",
            "table:users:read", "table:orders:read"), Instant.MAX);

    static QueryServiceTest.Fixture fixture;
    static SqlQueryTools tools;

    @BeforeAll
    static void start() throws Exception {
        QueryServiceTest.start();
        fixture = QueryServiceTest.fixture(TestDatabase.Kind.H2);
        tools = new SqlQueryTools(fixture.methods());
    }

    @AfterAll
    static void stop() throws Exception {
        fixture.close();
        QueryServiceTest.stop();
    }

    static List<String> problems(String pointer, JsonValue value) {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(SchemaLocation.of(MCP_SCHEMA.toUri() + "#/$defs/" + pointer))
                .validate(value.toString(), InputFormat.JSON).stream().map(ValidationMessage::getMessage).toList();
    }

    static List<String> against(JsonObject schema, JsonValue value) {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(schema.toString())
                .validate(value.toString(), InputFormat.JSON).stream().map(ValidationMessage::getMessage).toList();
    }

    @Test
    void everyToolIsAValidMcpToolWithHints() {
        Map<String, JsonObject> byName = tools.list().stream().map(JsonValue::asJsonObject)
                .collect(Collectors.toMap(t -> t.getString("name"), t -> t));
        assertEquals(Set.of("query_execute", "query_explain", "query_suggest", "schema_info", "schema_search",
                "session_create", "session_get", "session_destroy"), byName.keySet());
        byName.values().forEach(tool -> assertEquals(List.of(), problems("Tool", tool), tool::toString));
        for (String name : List.of("query_execute", "query_explain", "query_suggest", "schema_info", "schema_search", "session_get")) {
            assertTrue(byName.get(name).getJsonObject("annotations").getBoolean("readOnlyHint"), name);
        }
        assertFalse(byName.get("session_destroy").getJsonObject("annotations").getBoolean("readOnlyHint"));
        assertTrue(byName.get("session_destroy").getJsonObject("annotations").getBoolean("destructiveHint"));
    }

    @Test
    void callsAnswerWithStructuredContentThatMatchesTheOutputSchema() {
        Map<String, JsonObject> byName = tools.list().stream().map(JsonValue::asJsonObject)
                .collect(Collectors.toMap(t -> t.getString("name"), t -> t));
        Script script = QueryServiceTest.provider.script(Reply.text("SELECT id, name FROM users ORDER BY id"));
        JsonObject executed = tools.call(READER, "query_execute", Json.createObjectBuilder().add("query", "查询用户 " + script.key())
                .add("options", Json.createObjectBuilder().add("limit", 2)).build());
        assertEquals(List.of(), problems("CallToolResult", executed));
        assertFalse(executed.getBoolean("isError"));
        assertEquals(List.of(), against(byName.get("query_execute").getJsonObject("outputSchema"), executed.getJsonObject("structuredContent")));
        assertEquals(2, executed.getJsonObject("structuredContent").getJsonArray("data").size());

        JsonObject searched = tools.call(READER, "schema_search", Json.createObjectBuilder().add("query", "用户订单").build());
        assertEquals(List.of(), against(byName.get("schema_search").getJsonObject("outputSchema"), searched.getJsonObject("structuredContent")));
        JsonObject session = tools.call(READER, "session_create", JsonValue.EMPTY_JSON_OBJECT);
        String id = session.getJsonObject("structuredContent").getString("session_id");
        JsonObject got = tools.call(READER, "session_get", Json.createObjectBuilder().add("session_id", id).build());
        assertEquals(List.of(), against(byName.get("session_get").getJsonObject("outputSchema"), got.getJsonObject("structuredContent")));
        JsonObject explained = tools.call(READER, "query_explain", Json.createObjectBuilder().add("sql", "SELECT COUNT(*) FROM orders").build());
        assertEquals(List.of(), against(byName.get("query_explain").getJsonObject("outputSchema"), explained.getJsonObject("structuredContent")));

        JsonObject refused = tools.call(READER, "schema_info", Json.createObjectBuilder().add("table", "employees").build());
        assertEquals(List.of(), problems("CallToolResult", refused));
        assertTrue(refused.getBoolean("isError"));
        JsonObject error = Json.createReader(new StringReader(refused.getJsonArray("content").getJsonObject(0).getString("text")))
                .readObject().getJsonObject("error");
        assertEquals(-31001, error.getInt("code"));
        assertEquals("table:employees:read", error.getJsonObject("data").getString("required_permission"));
    }
}
