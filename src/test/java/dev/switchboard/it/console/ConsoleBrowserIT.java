package dev.switchboard.it.console;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Leftovers;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.StringReader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web console in a real browser: {@code src/test/node/console-e2e.mjs} drives Debian's Chromium with
 * playwright-core through sign-in, a stdio server-everything (create, test, toggle tools), an assistant using it
 * (created, then edited),
 * a chat with that assistant whose get-sum call is approved from the keyboard in its inline block (then done, its
 * result and the answer, from the scripted LLM provider on {@code it.llm.port}, with a model picked for the message),
 * an API key (create, copy, revoke), an API error shown in words, a failed test, delete with confirmation, an edit
 * that keeps masked secrets, built-in servers (the demo card, one registered through the form after the API refused
 * an unknown name, tested; a user refused in words), an HTTP server's header kept masked, a narrow screen, table
 * permissions (a user's tenant shown with role user's default, an unknown table refused in words, a grant to the user,
 * the role narrowed, what the user may do), sign-out and sign-in with an API key (a wrong token refused in words),
 * and the user's Query page showing the tables those permissions allow. Each step leaves a screenshot in
 * {@code target/console-screenshots}; any browser console error or page error, request leaving Switchboard, unnamed
 * control or sideways scrolling fails the run (src/test/node/console-harness.mjs).
 * Afterwards this test checks through the REST API that what the browser did really happened.
 */
class ConsoleBrowserIT {

    private static final Path LOG = Paths.get("target", "console-e2e.log").toAbsolutePath();

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final Leftovers leftovers = new Leftovers();

    @Test
    void walkThroughTheConsole() throws Exception {
        Api.awaitReady();
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        // the chat step: the model calls get-sum of the server the browser registers, then answers with its result
        Script chat = provider.script(
                Reply.tools(new ToolCall("call-browser-sum", "mcp__everything-" + suffix + "__get-sum", "{\"a\":20,\"b\":22}")),
                Reply.text("get-sum says 42."));
        BrowserWalkthrough.Outcome walk = BrowserWalkthrough.run("console-e2e.mjs", LOG, List.of(
                "--everything", ServerEverything.entryPoint().toString(),
                "--suffix", suffix,
                "--chat-key", chat.key()));
        if (walk.result() != null) {
            remember(walk.result());
        }
        JsonObject result = walk.assertPassed();

        // What the browser did, checked through the REST API.
        String admin = Api.adminToken();
        long serverId = result.getJsonNumber("serverId").longValue();
        JsonObject server = Api.get("/api/mcp-servers/" + serverId, admin).expect(200).json();
        assertEquals(result.getString("serverName"), server.getString("name"));
        assertEquals("stdio", server.getString("type"));
        assertEquals("node", server.getString("command"));
        assertEquals(List.of(ServerEverything.entryPoint().toString(), "stdio"), strings(server, "args"));
        assertEquals(List.of(result.getString("disabledTool")), strings(server, "disabledTools"));
        assertEquals(List.of(result.getString("autoApprovedTool")), strings(server, "autoApproveTools"));
        assertEquals(45, server.getInt("timeout"), "the edit in the browser was saved");
        assertTrue(server.getJsonObject("env").getString("EVERYTHING_NOTE").startsWith("••"), "env stays masked");

        JsonObject tools = Api.get("/api/mcp-servers/" + serverId + "/tools", admin).expect(200).json();
        boolean disabledSeen = false;
        for (JsonValue value : tools.getJsonArray("data")) {
            JsonObject tool = value.asJsonObject();
            if (tool.getString("name").equals(result.getString("disabledTool"))) {
                assertFalse(tool.getBoolean("isEnabled"));
                disabledSeen = true;
            }
        }
        assertTrue(disabledSeen, "the disabled tool is still listed, as disabled");

        JsonObject builtin = Api.get("/api/mcp-servers/" + result.getJsonNumber("builtinServerId").longValue(), admin).expect(200).json();
        assertEquals("builtin", builtin.getString("type"), "the built-in server made in the browser: " + builtin);
        assertEquals("knowledge", builtin.getString("command"));

        // the tool switches flipped in the browser decide what the model is offered: echo was disabled there
        assertEquals(0, chat.remaining(), "the chat took both scripted replies");
        assertEquals("gpt-4o", chat.requests().get(0).getString("model"), "the model picked in the browser was asked");
        String offered = chat.requests().get(0).getJsonArray("tools").toString();
        assertTrue(offered.contains("mcp__" + result.getString("serverName") + "__get-sum"), "the server's tools were offered: " + offered);
        assertFalse(offered.contains("mcp__" + result.getString("serverName") + "__" + result.getString("disabledTool") + "\""),
                "the tool disabled in the browser was not offered: " + offered);
        assertTrue(chat.requests().get(1).toString().contains("The sum of 20 and 22 is 42"), "the approved call ran and its result went to the model");

        long assistantId = result.getJsonNumber("assistantId").longValue();
        JsonObject assistant = Api.get("/api/assistants/" + assistantId, admin).expect(200).json();
        assertEquals(result.getString("assistantName"), assistant.getString("name"));
        assertEquals("gpt-4o-mini", assistant.getString("model"));
        assertTrue(assistant.getBoolean("knowledgeBaseEnabled"));
        assertEquals("Answers operations questions; edited in the browser", assistant.getString("description"), "the edit in the browser was saved");
        assertEquals(serverId, assistant.getJsonArray("mcpServerIds").getJsonNumber(0).longValue());

        String keys = Api.get("/api/api-keys", admin).expect(200).text();
        JsonObject key = null;
        try (var reader = Json.createReader(new StringReader(keys))) {
            for (JsonValue value : reader.readArray()) {
                if (value.asJsonObject().getString("name").equals(result.getString("keyName"))) {
                    key = value.asJsonObject();
                }
            }
        }
        assertTrue(key != null && key.getBoolean("revoked"), "the key made in the browser exists and is revoked: " + keys);

        // the table permissions granted and narrowed in the browser
        String userName = result.getString("userName");
        JsonObject granted = Api.get("/api/query/permissions?user=" + userName, admin).expect(200).json();
        assertEquals(List.of("table:employees:read"), granted.getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .map(g -> g.getString("permission")).toList());
        List<JsonObject> role = Api.get("/api/query/permissions?role=user&tenant=" + granted.getString("tenant"), admin).expect(200)
                .json().getJsonArray("data").getValuesAs(JsonObject.class);
        assertTrue(role.stream().allMatch(g -> g.getString("source").equals("grant"))
                && role.stream().noneMatch(g -> g.getString("permission").equals("table:products:read")), role::toString);

        List<String> shots = BrowserWalkthrough.screenshots("\\d\\d-.*\\.png");
        assertEquals(result.getJsonArray("screenshots").size(), shots.size(), "one screenshot per step: " + shots);
        assertTrue(shots.size() >= 15, "every step kept a screenshot: " + shots);
    }

    /** What the browser made goes after the test, whether it passed or not. */
    private static void remember(JsonObject result) {
        if (result.containsKey("serverId")) {
            leftovers.server(result.getJsonNumber("serverId").longValue());
        }
        if (result.containsKey("builtinServerId")) {
            leftovers.server(result.getJsonNumber("builtinServerId").longValue());
        }
        if (result.containsKey("userName")) {
            leftovers.user(result.getString("userName"));
        }
        if (result.containsKey("assistantId")) {
            leftovers.assistant(result.getJsonNumber("assistantId").longValue());
        }
    }

    private static List<String> strings(JsonObject json, String key) {
        return json.getJsonArray(key).getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }
}
