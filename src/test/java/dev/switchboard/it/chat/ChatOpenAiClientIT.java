package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.RunningEverything;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The official {@code openai} npm client reads Switchboard's answers unchanged, blocking and streamed, and a stream
 * that waits for a tool call's approval.
 */
class ChatOpenAiClientIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final RunningEverything backend = RunningEverything.streamableHttp();

    @Test
    void officialClientReadsBlockingStreamedAndAgentRunAnswers() throws Exception {
        String token = Api.newUser("default");
        String server = Names.unique("sdk");
        long assistant = Chat.assistant(token, Chat.server(token, server, backend.url(), List.of("echo"), List.of()));
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

    /**
     * The SDK keeps reading a stream that waits for approval (keep-alive comments, seed 004's named events) while this
     * test, on connections of its own, confirms the call it announced: approved, the stream ends with the answer;
     * rejected, the accumulating helper's final message is the LLM's answer to the refusal.
     */
    @Test
    void officialClientStreamsThroughAnApprovalAndARejectionMadeFromAnotherConnection() throws Exception {
        String token = Api.newUser("default");
        String server = Names.unique("sdkok");
        long assistant = Chat.assistant(token, Chat.server(token, server, backend.url(), List.of(), List.of()));
        String echo = "mcp__" + server + "__echo";
        Script approve = provider.script(Reply.tools(new ToolCall("oa1", echo, "{\"message\":\"sdk approved\"}")),
                Reply.text("the tool said Echo: sdk approved"));
        Script reject = provider.script(Reply.tools(new ToolCall("or1", echo, "{\"message\":\"sdk rejected\"}")),
                Reply.text("you did not let me"));
        JsonObject input = Json.createObjectBuilder().add("mode", "approvals").add("baseURL", Api.BASE + "/api").add("token", token)
                .add("model", "scripted-model").add("assistantId", assistant).add("approveKey", approve.key())
                .add("rejectKey", reject.key()).add("session", Names.unique("sdk-approvals")).build();

        List<String> confirmed = new ArrayList<>();
        JsonObject result = runNode(input, pending -> {
            boolean yes = "approve".equals(pending.getString("run"));
            JsonObject decided = Api.post("/api/messages/" + pending.getJsonNumber("messageId") + "/tool-confirm", token,
                    Json.createObjectBuilder().add("toolCallId", pending.getString("toolCallId")).add("approved", yes).build())
                    .expect(200).json();
            confirmed.add(pending.getString("run") + ":" + pending.getString("toolCallId") + ":" + decided.getString("status"));
        }).getJsonObject("result");

        assertEquals(List.of("approve:oa1:invoking", "reject:or1:cancelled"), confirmed);
        JsonObject approved = result.getJsonObject("approved");
        assertEquals("the tool said Echo: sdk approved", approved.getString("text"));
        assertEquals("stop", approved.getString("finish"));
        assertEquals(List.of("pending", "invoking", "done"), strings(approved.getJsonArray("statuses")));
        assertEquals(0, approved.getInt("toolChoices"), "a call Switchboard runs is not one for the client to run");
        assertEquals("Echo: sdk approved", Chat.toolMessage(approve.requests().get(1).getJsonArray("messages"), "oa1"));

        JsonObject rejected = result.getJsonObject("rejected");
        assertEquals("you did not let me", rejected.getString("content"));
        assertEquals("stop", rejected.getString("finish"));
        assertEquals(0, rejected.getInt("toolCalls"));
        assertEquals(List.of("pending", "cancelled"), strings(rejected.getJsonArray("statuses")));
        assertTrue(Chat.toolMessage(reject.requests().get(1).getJsonArray("messages"), "or1").contains("tool_rejected"));
    }

    static List<String> strings(jakarta.json.JsonArray array) {
        return array.getValuesAs(jakarta.json.JsonString.class).stream().map(jakarta.json.JsonString::getString).toList();
    }

    static JsonObject runNode(JsonObject input) throws Exception {
        return runNode(input, pending -> {
            throw new AssertionError("nothing waits for approval here: " + pending);
        });
    }

    /**
     * Runs {@code openai-chat.js}; every {@code {"pending": ...}} line it prints while it runs goes to
     * {@code onPending} at once (the script is still reading its stream), the last line is the result.
     */
    static JsonObject runNode(JsonObject input, Consumer<JsonObject> onPending) throws Exception {
        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node"));
        Path script = Paths.get("src/test/node/openai-chat.js").toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder("node", script.toString(), input.toString());
        builder.environment().put("NODE_PATH", nodeDir.resolve("node_modules").toAbsolutePath().toString());
        builder.redirectError(ProcessBuilder.Redirect.appendTo(Paths.get("target", "openai-chat.log").toFile()));
        Process process = builder.start();
        String last = null;
        StringBuilder out = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                out.append(line).append('\n');
                if (line.startsWith("{\"pending\"")) {
                    onPending.accept(parse(line).getJsonObject("pending"));
                } else if (!line.isBlank()) {
                    last = line;
                }
            }
        } finally {
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        assertEquals(0, process.exitValue(), () -> "node failed; see target/openai-chat.log. stdout: " + out);
        assertTrue(last != null, "node printed a result");
        return parse(last);
    }

    static JsonObject parse(String line) {
        try (var reader = Json.createReader(new StringReader(line.strip()))) {
            return reader.readObject();
        }
    }
}
