package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 003's workspaces on the running server, with seed 002's flow (read a file, summarise it, write {@code new.md})
 * done by the scripted LLM through the built-in tools and through {@code @modelcontextprotocol/server-filesystem}
 * rooted in the workspace; escapes refused; expiry ({@code switchboard.workspace.ttl=PT6S} on the IT server).
 */
class WorkspaceIT {

    static final String ARTICLE = "# Switchboard\nSwitchboard connects AI agents to MCP tools. It runs on Open Liberty.\n";
    static final String SUMMARY = "# Summary\nSwitchboard links agents to MCP tools, on Open Liberty.\n";

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final NewUser alice = new NewUser();

    static JsonObject ask(Script script, String session, Long assistant) {
        var body = Json.createObjectBuilder().add("session_id", session)
                .add("messages", Json.createArrayBuilder().add(Chat.user("读取 article.md，总结并写入 new.md " + script.key())));
        if (assistant != null) {
            body.add("assistant_id", assistant);
        }
        return body.build();
    }

    /** A first request opens the session's workspace; its path comes back in {@code tool_execution}. */
    static Path openWorkspace(String token, String session) {
        Script hello = provider.script(Reply.text("ready"));
        JsonObject answer = Api.post("/api/chat/completions", token, ask(hello, session, null)).expect(200).json();
        JsonObject execution = answer.getJsonObject("tool_execution");
        assertEquals(session, execution.getString("session_id"));
        Path workspace = Paths.get(execution.getString("workspace_path"));
        assertTrue(Files.isDirectory(workspace), workspace + " was created on first use");
        assertTrue(workspace.endsWith(session), workspace.toString());
        return workspace;
    }

    static String content(JsonObject answer) {
        return answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content");
    }

    @Test
    void seed002FlowWithTheBuiltInTools() throws Exception {
        String session = Names.unique("seed002");
        Path workspace = openWorkspace(alice.token(), session);
        Files.writeString(workspace.resolve("article.md"), ARTICLE);
        Script script = provider.script(
                Reply.tools(new ToolCall("w1", "workspace__read_file", "{\"path\":\"article.md\"}")),
                Reply.tools(new ToolCall("w2", "workspace__write_file", Json.createObjectBuilder().add("path", "new.md")
                        .add("content", SUMMARY).build().toString())),
                Reply.text("任务完成，已成功将摘要写入 new.md 文件"));
        JsonObject answer = Api.post("/api/chat/completions", alice.token(), ask(script, session, null)).expect(200).json();

        assertEquals("任务完成，已成功将摘要写入 new.md 文件", content(answer));
        assertEquals(SUMMARY, Files.readString(workspace.resolve("new.md")));
        List<String> offered = script.requests().get(0).getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .map(t -> t.getJsonObject("function").getString("name")).toList();
        assertEquals(List.of("workspace__read_file", "workspace__write_file", "workspace__list_files", "workspace__delete_file"), offered);
        assertEquals(ARTICLE, Chat.toolMessage(script.requests().get(1).getJsonArray("messages"), "w1"));
        assertEquals("Wrote " + SUMMARY.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + " bytes to new.md",
                Chat.toolMessage(script.requests().get(2).getJsonArray("messages"), "w2"));
        JsonObject execution = answer.getJsonObject("tool_execution");
        assertEquals(List.of("workspace__read_file", "workspace__write_file"),
                execution.getJsonArray("tools_called").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList());
        assertEquals(workspace.toString(), execution.getString("workspace_path"));
    }

    @Test
    void escapesAreRefusedWithTheErrorTheLlmReadsAndNothingIsWrittenOutside() throws Exception {
        String session = Names.unique("escape");
        Path workspace = openWorkspace(alice.token(), session);
        Path outside = Files.createTempDirectory("switchboard-outside");
        Files.createSymbolicLink(workspace.resolve("link"), outside);
        Script script = provider.script(Reply.tools(
                new ToolCall("e1", "workspace__read_file", "{\"path\":\"../../../../etc/passwd\"}"),
                new ToolCall("e2", "workspace__write_file", "{\"path\":\"/tmp/escaped.md\",\"content\":\"x\"}"),
                new ToolCall("e3", "workspace__write_file", "{\"path\":\"link/escaped.md\",\"content\":\"x\"}"),
                new ToolCall("e4", "workspace__write_file", "{\"path\":\"notes/../../escaped.md\",\"content\":\"x\"}"),
                new ToolCall("e5", "workspace__delete_file", "{\"path\":\"..\"}")), Reply.text("I may not leave the workspace."));
        JsonObject answer = Api.post("/api/chat/completions", alice.token(), ask(script, session, null)).expect(200).json();
        assertEquals("I may not leave the workspace.", content(answer));

        JsonArray sent = script.requests().get(1).getJsonArray("messages");
        assertEquals("Path '../../../../etc/passwd' leaves the workspace: '..' is not allowed", Chat.toolMessage(sent, "e1"));
        assertEquals("Path '/tmp/escaped.md' is absolute; use a path relative to the workspace", Chat.toolMessage(sent, "e2"));
        assertEquals("Path 'link/escaped.md' leads outside the workspace (through a symbolic link)", Chat.toolMessage(sent, "e3"));
        assertEquals("Path 'notes/../../escaped.md' leaves the workspace: '..' is not allowed", Chat.toolMessage(sent, "e4"));
        assertEquals("Path '..' leaves the workspace: '..' is not allowed", Chat.toolMessage(sent, "e5"));
        assertFalse(Files.exists(Path.of("/tmp/escaped.md")));
        assertFalse(Files.exists(workspace.getParent().resolve("escaped.md")));
        try (var files = Files.list(outside)) {
            assertEquals(0, files.count(), "nothing was written through the link");
        }
        JsonArray calls = Api.get("/api/messages/" + answer.getJsonNumber("message_id"), alice.token()).expect(200).json().getJsonArray("toolCalls");
        assertEquals(5, calls.size());
        calls.getValuesAs(JsonObject.class).forEach(c -> {
            assertEquals("error", c.getString("status"));
            assertTrue(c.getBoolean("isError"));
        });
    }

    /** As an admin: only admins may register stdio servers. */
    @Test
    void seed002FlowWithServerFilesystemRootedInTheWorkspace() throws Exception {
        String admin = Api.adminToken();
        String session = Names.unique("fs");
        Path workspace = openWorkspace(admin, session);
        Files.writeString(workspace.resolve("article.md"), ARTICLE);
        String name = Names.unique("files");
        Path entry = filesystemEntry();
        long server = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", name).add("command", "node")
                .add("args", Json.createArrayBuilder().add(entry.toString()).add(workspace.toString()))
                .add("autoApproveTools", Json.createArrayBuilder().add("read_text_file").add("write_file")).build())
                .expect(201).json().getJsonNumber("id").longValue();
        long assistant = Chat.assistant(admin, server);
        String read = "mcp__" + name + "__read_text_file";
        String write = "mcp__" + name + "__write_file";
        Script script = provider.script(
                Reply.tools(new ToolCall("f1", read, Json.createObjectBuilder().add("path", workspace.resolve("article.md").toString()).build().toString())),
                Reply.tools(new ToolCall("f2", write, Json.createObjectBuilder().add("path", workspace.resolve("new.md").toString())
                        .add("content", SUMMARY).build().toString()),
                        new ToolCall("f3", read, "{\"path\":\"/etc/passwd\"}")),
                Reply.text("已写入 new.md"));
        JsonObject answer = Api.post("/api/chat/completions", admin, ask(script, session, assistant)).expect(200).json();

        assertEquals("已写入 new.md", content(answer));
        assertEquals(SUMMARY, Files.readString(workspace.resolve("new.md")));
        assertEquals(ARTICLE, Chat.toolMessage(script.requests().get(1).getJsonArray("messages"), "f1"));
        String refused = Chat.toolMessage(script.requests().get(2).getJsonArray("messages"), "f3");
        assertTrue(refused.contains("Access denied") && refused.contains("outside allowed directories"), refused);
        Api.delete("/api/mcp-servers/" + server, admin).expect(204);
    }

    /** One registration, rooted in "." (the process's working directory), confines each session to its own workspace. */
    @Test
    void stdioServersOfASessionRunInItsWorkspace() throws Exception {
        String admin = Api.adminToken();
        Path first = openWorkspace(admin, Names.unique("cwd-a"));
        Path second = openWorkspace(admin, Names.unique("cwd-b"));
        String name = Names.unique("here");
        long server = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", name).add("command", "node")
                .add("args", Json.createArrayBuilder().add(filesystemEntry().toString()).add("."))
                .add("autoApproveTools", Json.createArrayBuilder().add("read_text_file").add("write_file")).build())
                .expect(201).json().getJsonNumber("id").longValue();
        long assistant = Chat.assistant(admin, server);
        Script write = provider.script(Reply.tools(new ToolCall("c1", "mcp__" + name + "__write_file",
                "{\"path\":\"new.md\",\"content\":\"only in the first\"}")), Reply.text("written"));
        Api.post("/api/chat/completions", admin, ask(write, first.getFileName().toString(), assistant)).expect(200);
        Script read = provider.script(Reply.tools(new ToolCall("c2", "mcp__" + name + "__read_text_file", "{\"path\":\"new.md\"}")),
                Reply.text("not here"));
        Api.post("/api/chat/completions", admin, ask(read, second.getFileName().toString(), assistant)).expect(200);

        assertEquals("only in the first", Files.readString(first.resolve("new.md")), "the first session's process worked in its workspace");
        assertFalse(Files.exists(second.resolve("new.md")));
        String missing = Chat.toolMessage(read.requests().get(1).getJsonArray("messages"), "c2");
        assertTrue(missing.contains("ENOENT") && missing.contains(second.toRealPath().toString()), missing);
        Api.delete("/api/mcp-servers/" + server, admin).expect(204);
    }

    static Path filesystemEntry() {
        return Paths.get(System.getProperty("switchboard.node.dir", "target/node"), "node_modules", "@modelcontextprotocol",
                "server-filesystem", "dist", "index.js").toAbsolutePath();
    }

    @Test
    void idleWorkspacesExpire() throws Exception {
        Path workspace = openWorkspace(alice.token(), Names.unique("expire"));
        Files.writeString(workspace.resolve("left-behind.txt"), "x");
        Instant deadline = Instant.now().plusSeconds(60);
        while (Files.exists(workspace) && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
        }
        assertFalse(Files.exists(workspace), "deleted by the expiry timer once idle past the TTL");
        assertTrue(Files.isDirectory(workspace.getParent().getParent()), "the root stays");
    }
}
