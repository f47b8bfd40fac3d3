package dev.switchboard.it;

import dev.switchboard.llm.ScriptedProvider;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The official {@code openai} npm client reads Switchboard's answers unchanged, blocking and streamed. */
class ChatOpenAiClientIT {

    static ScriptedProvider provider;
    static ServerEverything backend;

    @BeforeAll
    static void start() {
        provider = ChatFixture.startProvider();
        backend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
    }

    @AfterAll
    static void stop() {
        if (provider != null) {
            provider.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void officialClientReadsBlockingStreamedAndAgentRunAnswers() throws Exception {
        String token = Api.newUser("default");
        String server = ChatFixture.name("sdk");
        long assistant = ChatFixture.assistant(token, ChatFixture.server(token, server, backend.url(), List.of("echo"), List.of()));
        Script blocking = provider.script(Reply.text("a blocking answer"));
        Script streamed = provider.script(Reply.text("a streamed answer in many small pieces"));
        Script helper = provider.script(Reply.tools(new ToolCall("h1", "mcp__" + server + "__echo", "{\"message\":\"sdk\"}")),
                Reply.text("the tool said Echo: sdk"));
        JsonObject input = Json.createObjectBuilder().add("baseURL", Api.BASE + "/api").add("token", token)
                .add("model", "scripted-model").add("assistantId", assistant).add("blockingKey", blocking.key())
                .add("streamKey", streamed.key()).add("helperKey", helper.key()).build();

        JsonObject result = runNode(input);

        JsonObject b = result.getJsonObject("blocking");
        assertEquals("chat.completion", b.getString("object"));
        assertEquals("a blocking answer", b.getString("content"));
        assertEquals("stop", b.getString("finish"));
        assertEquals(15, b.getInt("totalTokens"));
        JsonObject s = result.getJsonObject("streamed");
        assertEquals("a streamed answer in many small pieces", s.getString("text"));
        assertEquals("stop", s.getString("finish"));
        assertEquals(15, s.getJsonObject("usage").getInt("total_tokens"));
        assertEquals(1, s.getInt("ids"));
        assertTrue(s.getInt("chunks") > 5, "many chunks: " + s);
        JsonObject h = result.getJsonObject("helper");
        assertEquals("the tool said Echo: sdk", h.getString("content"));
        assertEquals("stop", h.getString("finish"));
        assertEquals(0, h.getInt("toolCalls"), "server-run tool calls do not leak into the accumulated message");
        assertEquals("Echo: sdk", helper.requests().get(1).getJsonArray("messages").getValuesAs(JsonObject.class).stream()
                .filter(m -> "tool".equals(m.getString("role"))).findFirst().orElseThrow().getString("content"));
    }

    static JsonObject runNode(JsonObject input) throws Exception {
        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node"));
        Path script = Paths.get("src/test/node/openai-chat.js").toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder("node", script.toString(), input.toString());
        builder.environment().put("NODE_PATH", nodeDir.resolve("node_modules").toAbsolutePath().toString());
        builder.redirectError(ProcessBuilder.Redirect.appendTo(Paths.get("target", "openai-chat.log").toFile()));
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "node finished");
        assertEquals(0, process.exitValue(), () -> "node failed; see target/openai-chat.log. stdout: " + out);
        try (var reader = Json.createReader(new StringReader(out.strip()))) {
            return reader.readObject();
        }
    }
}
