package dev.switchboard.it.console;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Leftovers;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.it.support.Servers;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chat page in two tabs ({@code src/test/node/console-chat-watch-e2e.mjs}, Chromium through playwright-core): a
 * call that waits for approval in a run of the first tab shows up in the second without a reload (through
 * {@code GET /api/conversations/{id}/events}) and is approved there; a call approved in the first tab is seen to run
 * and finish in the second. Screenshots {@code watch-NN-*.png} in {@code target/console-screenshots}.
 */
class ConsoleChatWatchBrowserIT {

    private static final Path LOG = Paths.get("target", "console-chat-watch-e2e.log").toAbsolutePath();

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final Leftovers leftovers = new Leftovers();

    @Test
    void aPendingApprovalShowsUpInASecondTabAndIsDecidedThere() throws Exception {
        Api.awaitReady();
        String admin = Api.adminToken();
        String serverName = Names.unique(Servers.GATEWAY_PREFIX + "watched");
        long serverId = Servers.register(admin, Json.createObjectBuilder().add("name", serverName).add("command", "node")
                .add("args", Json.createArrayBuilder().add(ServerEverything.entryPoint().toString()).add("stdio"))
                .add("scope", "shared").add("autoApproveTools", Json.createArrayBuilder().add("echo")).build());
        leftovers.server(serverId);
        String assistantName = Names.unique("Watched helper");
        long assistantId = Api.post("/api/assistants", admin, Json.createObjectBuilder().add("name", assistantName)
                .add("mcpServerIds", Json.createArrayBuilder().add(serverId)).build()).expect(201).json().getJsonNumber("id").longValue();
        leftovers.assistant(assistantId);
        String sum = "mcp__" + serverName + "__get-sum";
        Script script = provider.script(Reply.text("Ready when you are."),
                Reply.tools(new ToolCall("call-watch-1", sum, "{\"a\":2,\"b\":3}")), Reply.text("Approved in the other tab: 5."),
                Reply.tools(new ToolCall("call-watch-2", sum, "{\"a\":4,\"b\":5}")), Reply.text("Approved here: 9."));

        JsonObject result = BrowserWalkthrough.run("console-chat-watch-e2e.mjs", LOG, List.of(
                "--assistant-name", assistantName, "--key", script.key())).assertPassed();

        assertEquals(0, script.remaining(), "both runs asked the model again after their call");
        assertTrue(script.requests().get(2).toString().contains("The sum of 2 and 3 is 5"), "the call approved in the second tab ran");
        assertTrue(script.requests().get(4).toString().contains("The sum of 4 and 5 is 9"), "the call approved in the first tab ran");
        JsonObject stored = Api.get("/api/conversations/" + result.getJsonNumber("conversationId") + "/messages", admin).expect(200).json();
        long done = stored.getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .filter(m -> m.containsKey("toolCalls") && m.get("toolCalls").getValueType() == JsonValue.ValueType.ARRAY)
                .flatMap(m -> m.getJsonArray("toolCalls").getValuesAs(JsonObject.class).stream())
                .filter(c -> c.getString("status").equals("done")).count();
        assertEquals(2, done, "both calls are stored done in the one conversation: " + stored);
        assertTrue(result.getJsonNumber("approvedInSecondTab").longValue() != result.getJsonNumber("approvedInFirstTab").longValue());
        assertEquals(result.getJsonArray("screenshots").size(), BrowserWalkthrough.screenshots("watch-\\d\\d-[a-z-]+\\.png").size(),
                "one screenshot of the first tab per step");
    }
}
