package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.EverythingAssistant;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /api/chat/completions} on the running server, pointed at the scripted provider, with a real
 * server-everything backend behind the assistant: the agent loop, manual mode, parallel calls, the round limit,
 * provider failures, stored conversations.
 */
class ChatCompletionsIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final EverythingAssistant chat = new EverythingAssistant("every",
            List.of("echo", "get-sum", "trigger-long-running-operation"), List.of("get-env"));
    @RegisterExtension
    static final NewUser bob = new NewUser();

    static String tool(String name) {
        return chat.tool(name);
    }

    static JsonObject ask(Script script, String text) {
        return Json.createObjectBuilder().add("assistant_id", chat.assistant())
                .add("messages", Json.createArrayBuilder().add(Chat.user(text + " " + script.key()))).build();
    }

    @Test
    void autoLoopRunsRealMcpToolsOverSeveralRoundsAndStoresOneAssistantMessage() {
        Script script = provider.script(
                Reply.tools(new ToolCall("call_echo", tool("echo"), "{\"message\":\"hello loop\"}")),
                Reply.tools(new ToolCall("call_sum", tool("get-sum"), "{\"a\":40,\"b\":2}")),
                Reply.text("The echo said hello loop and the sum is 42."));
        JsonObject answer = Api.post("/api/chat/completions", chat.owner(), ask(script, "echo then add")).expect(200).json();

        assertEquals("chat.completion", answer.getString("object"));
        assertTrue(answer.getString("id").startsWith("chatcmpl-"));
        assertEquals("scripted-model", answer.getString("model"), "the configured default model");
        JsonObject choice = answer.getJsonArray("choices").getJsonObject(0);
        assertEquals("The echo said hello loop and the sum is 42.", choice.getJsonObject("message").getString("content"));
        assertEquals("stop", choice.getString("finish_reason"));
        assertEquals(45, answer.getJsonObject("usage").getInt("total_tokens"), "usage summed over three rounds");
        JsonObject execution = answer.getJsonObject("tool_execution");
        assertTrue(execution.getBoolean("executed"));
        assertEquals(2, execution.getInt("rounds"));
        assertEquals(List.of(tool("echo"), tool("get-sum")), execution.getJsonArray("tools_called").getValuesAs(jakarta.json.JsonString.class)
                .stream().map(jakarta.json.JsonString::getString).toList());

        List<JsonObject> sent = script.requests();
        Set<String> offered = sent.get(0).getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .map(t -> t.getJsonObject("function").getString("name")).collect(Collectors.toSet());
        assertTrue(offered.contains(tool("echo")) && offered.contains(tool("get-tiny-image")), offered.toString());
        assertFalse(offered.contains(tool("get-env")), "disabled tools are not offered");
        assertEquals("system", sent.get(0).getJsonArray("messages").getJsonObject(0).getString("role"), "assistant prompt first");
        JsonArray last = sent.get(2).getJsonArray("messages");
        assertEquals("Echo: hello loop", Chat.toolMessage(last, "call_echo"));
        assertTrue(Chat.toolMessage(last, "call_sum").contains("42"), Chat.toolMessage(last, "call_sum"));
        assertTrue(provider.authorizations().contains("Bearer it-llm-key"), "the provider gets its own key");
        assertTrue(provider.authorizations().stream().noneMatch(a -> a != null && a.contains(chat.owner())), "never the caller's token");

        long conversation = answer.getJsonNumber("conversation_id").longValue();
        JsonArray messages = Api.get("/api/conversations/" + conversation + "/messages", chat.owner()).expect(200).json().getJsonArray("data");
        assertEquals(2, messages.size(), "the user message and one assistant message");
        JsonObject stored = messages.getJsonObject(1);
        assertEquals("assistant", stored.getString("role"));
        assertEquals("The echo said hello loop and the sum is 42.", stored.getString("content"));
        JsonArray calls = stored.getJsonArray("toolCalls");
        assertEquals(2, calls.size());
        JsonObject echo = calls.getJsonObject(0);
        assertEquals("call_echo", echo.getString("id"));
        assertEquals(chat.serverName(), echo.getString("serverName"));
        assertEquals("echo", echo.getString("toolName"));
        assertEquals(tool("echo"), echo.getString("displayName"));
        assertEquals("hello loop", echo.getJsonObject("arguments").getString("message"));
        assertEquals("done", echo.getString("status"));
        assertFalse(echo.getBoolean("isError"));
        assertTrue(echo.getJsonObject("response").toString().contains("Echo: hello loop"));
        assertTrue(Api.get("/api/conversations", chat.owner()).expect(200).text().contains("\"id\":" + conversation));
        assertEquals("not_found", Api.get("/api/conversations/" + conversation + "/messages", bob.token()).expect(404).errorCode());
        assertFalse(Api.get("/api/conversations", bob.token()).expect(200).text().contains("\"id\":" + conversation));
    }

    @Test
    void runsAndTheirToolCallsAreCountedOnMetrics() {
        List<String> series = List.of("switchboard_chat_tool_calls_total status=\"done\" tool=\"" + tool("echo") + "\"",
                "switchboard_chat_requests_total outcome=\"ok\" tool_calls=\"true\"",
                "switchboard_chat_tool_duration_seconds_count tool=\"" + tool("echo") + "\"");
        Map<String, Double> before = metrics(series);
        Script script = provider.script(Reply.tools(new ToolCall("call_m", tool("echo"), "{\"message\":\"count me\"}")),
                Reply.text("counted"));
        Api.post("/api/chat/completions", chat.owner(), ask(script, "count")).expect(200);
        Map<String, Double> after = metrics(series);
        for (String one : series) {
            assertEquals(before.get(one) + 1, after.get(one), one + " in " + Api.get("/metrics", null).text().lines()
                    .filter(l -> l.startsWith("switchboard_chat")).toList());
        }
    }

    /**
     * The current value of each series, given as its name and the labels it must carry (in any order, as the
     * exposition does not fix one); 0 before its first sample.
     */
    static Map<String, Double> metrics(List<String> series) {
        List<String> lines = Api.get("/metrics", null).expect(200).text().lines().toList();
        Map<String, Double> values = new java.util.HashMap<>();
        for (String one : series) {
            List<String> parts = List.of(one.split(" "));
            values.put(one, lines.stream().filter(l -> l.startsWith(parts.get(0) + "{"))
                    .filter(l -> parts.subList(1, parts.size()).stream().allMatch(label -> l.contains(label)))
                    .findFirst().map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).orElse(0.0));
        }
        return values;
    }

    @Test
    void callsOfOneRoundRunInParallel() {
        String slow = "{\"duration\":2,\"steps\":2}";
        Script script = provider.script(Reply.tools(new ToolCall("p1", tool("trigger-long-running-operation"), slow),
                new ToolCall("p2", tool("trigger-long-running-operation"), slow),
                new ToolCall("p3", tool("trigger-long-running-operation"), slow)), Reply.text("all three finished"));
        long started = System.nanoTime();
        JsonObject answer = Api.post("/api/chat/completions", chat.owner(), ask(script, "three slow ones")).expect(200).json();
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertEquals("all three finished", answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));
        assertTrue(millis < 5000, "three 2 s calls took " + millis + " ms: they ran side by side");
        assertEquals(3, script.requests().get(1).getJsonArray("messages").getValuesAs(JsonObject.class).stream()
                .filter(m -> "tool".equals(m.getString("role"))).count());
    }

    @Test
    void manualModeHandsToolCallsBackAndContinuesWithTheCallersResults() {
        JsonObject readFile = Json.createObjectBuilder().add("type", "function").add("function", Json.createObjectBuilder()
                .add("name", "read_file").add("description", "read a file").add("parameters", Json.createObjectBuilder()
                        .add("type", "object").add("properties", Json.createObjectBuilder().add("path", Json.createObjectBuilder()
                                .add("type", "string"))))).build();
        Script script = provider.script(Reply.tools(new ToolCall("call_001", "read_file", "{\"path\": \"/tmp/config.json\"}")),
                Reply.text("根据读取的config.json文件，版本号是2.3.1。"));
        JsonObject first = Json.createObjectBuilder().add("model", "llama3.2").add("tool_choice", "auto")
                .add("session_id", "sess-" + script.key())
                .add("messages", Json.createArrayBuilder().add(Chat.user("请读取/tmp/config.json " + script.key())))
                .add("tools", Json.createArrayBuilder().add(readFile)).build();
        JsonObject handedBack = Api.post("/api/chat/completions", chat.owner(), first).expect(200).json();
        JsonObject choice = handedBack.getJsonArray("choices").getJsonObject(0);
        assertEquals("tool_calls", choice.getString("finish_reason"));
        assertEquals(JsonValue.NULL, choice.getJsonObject("message").get("content"));
        JsonObject call = choice.getJsonObject("message").getJsonArray("tool_calls").getJsonObject(0);
        assertEquals("call_001", call.getString("id"));
        assertEquals("read_file", call.getJsonObject("function").getString("name"));
        assertEquals("llama3.2", script.requests().get(0).getString("model"));
        assertEquals("auto", script.requests().get(0).getString("tool_choice"));

        JsonObject second = Json.createObjectBuilder().add("model", "llama3.2").add("session_id", "sess-" + script.key())
                .add("messages", Json.createArrayBuilder().add(Chat.user("请读取/tmp/config.json " + script.key()))
                        .add(choice.getJsonObject("message"))
                        .add(Json.createObjectBuilder().add("role", "tool").add("tool_call_id", "call_001")
                                .add("content", "{\"version\": \"2.3.1\"}")))
                .add("tools", Json.createArrayBuilder().add(readFile)).build();
        JsonObject answer = Api.post("/api/chat/completions", chat.owner(), second).expect(200).json();
        assertEquals("根据读取的config.json文件，版本号是2.3.1。", answer.getJsonArray("choices").getJsonObject(0)
                .getJsonObject("message").getString("content"));
        assertEquals("{\"version\": \"2.3.1\"}", Chat.toolMessage(script.requests().get(1).getJsonArray("messages"), "call_001"));
        assertEquals(handedBack.getJsonNumber("conversation_id"), answer.getJsonNumber("conversation_id"), "one session, one conversation");
        JsonArray stored = Api.get("/api/conversations/" + answer.getJsonNumber("conversation_id") + "/messages", chat.owner())
                .expect(200).json().getJsonArray("data");
        assertEquals(List.of("user", "assistant", "tool", "assistant"), stored.getValuesAs(JsonObject.class).stream()
                .map(m -> m.getString("role")).toList());
        assertEquals("pending", stored.getJsonObject(1).getJsonArray("toolCalls").getJsonObject(0).getString("status"));
    }

    @Test
    void roundLimitEndsWithAFinalAnswerWithoutTools() {
        Script script = provider.script(
                Reply.tools(new ToolCall("r1", tool("echo"), "{\"message\":\"1\"}")),
                Reply.tools(new ToolCall("r2", tool("echo"), "{\"message\":\"2\"}")),
                Reply.tools(new ToolCall("r3", tool("echo"), "{\"message\":\"3\"}")),
                Reply.text("I stopped after three rounds of tools."));
        JsonObject answer = Api.post("/api/chat/completions", chat.owner(), ask(script, "loop forever")).expect(200).json();
        assertEquals("I stopped after three rounds of tools.", answer.getJsonArray("choices").getJsonObject(0)
                .getJsonObject("message").getString("content"));
        JsonObject execution = answer.getJsonObject("tool_execution");
        assertEquals(3, execution.getInt("rounds"), "switchboard.chat.max-tool-rounds=3 on the IT server");
        assertTrue(execution.getBoolean("round_limit_reached"));
        assertFalse(script.requests().get(3).containsKey("tools"), "the final call offers no tools");
    }

    @Test
    void unknownToolsAndToolFailuresGoBackToTheLlm() {
        Script script = provider.script(Reply.tools(new ToolCall("u1", "mcp__nowhere__nothing", "{}"),
                new ToolCall("u2", tool("get-sum"), "{\"a\":\"not a number\"}")), Reply.text("sorry"));
        JsonObject answer = Api.post("/api/chat/completions", chat.owner(), ask(script, "break things")).expect(200).json();
        assertEquals("sorry", answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));
        JsonArray sent = script.requests().get(1).getJsonArray("messages");
        assertTrue(Chat.toolMessage(sent, "u1").contains("tool_not_found"), Chat.toolMessage(sent, "u1"));
        assertFalse(Chat.toolMessage(sent, "u2").isEmpty());
        JsonArray calls = Api.get("/api/conversations/" + answer.getJsonNumber("conversation_id") + "/messages", chat.owner())
                .json().getJsonArray("data").getJsonObject(1).getJsonArray("toolCalls");
        assertEquals("error", calls.getJsonObject(0).getString("status"));
        assertEquals("error", calls.getJsonObject(1).getString("status"), "the backend refused the arguments");
    }

    @Test
    void providerFailuresAreClearErrors() {
        Script slow = provider.script(Reply.text("too late").delay(5000));
        Api.Reply timeout = Api.post("/api/chat/completions", chat.owner(), ask(slow, "slow")).expect(504);
        assertEquals("llm_timeout", timeout.errorCode());

        Script html = provider.script(Reply.raw(200, "text/html", "<html>bad gateway</html>"));
        Api.Reply malformed = Api.post("/api/chat/completions", chat.owner(), ask(html, "malformed")).expect(502);
        assertEquals("llm_malformed", malformed.errorCode());

        Script refused = provider.script(Reply.raw(401, "application/json", "{\"error\":{\"message\":\"Incorrect API key provided\"}}"));
        Api.Reply rejected = Api.post("/api/chat/completions", chat.owner(), ask(refused, "rejected")).expect(502);
        assertEquals("llm_rejected", rejected.errorCode());
        assertTrue(rejected.errorMessage().contains("Incorrect API key provided"));
        assertFalse(rejected.text().contains("it-llm-key"), "the key is never echoed");

        provider.stop();
        try {
            Api.Reply down = Api.post("/api/chat/completions", chat.owner(), Json.createObjectBuilder()
                    .add("messages", Json.createArrayBuilder().add(Chat.user("anyone there?"))).build()).expect(502);
            assertEquals("llm_unavailable", down.errorCode());
            assertEquals("llm_error", down.json().getJsonObject("error").getString("type"));
        } finally {
            provider.start();
        }
    }

    @Test
    void modelsConfiguredForAnotherProviderGoThereWithItsKey() {
        Script script = provider.script(Reply.text("routed"));
        int before = provider.authorizations().size();
        JsonObject answer = Api.post("/api/chat/completions", chat.owner(), Json.createObjectBuilder().add("model", "routed-large")
                .add("messages", Json.createArrayBuilder().add(Chat.user("route me " + script.key()))).build()).expect(200).json();
        assertEquals("routed-large", answer.getString("model"));
        assertEquals("Bearer second-provider-key", provider.authorizations().get(before),
                "llm.providers=second with models routed-* on the IT server");
    }

    @Test
    void badRequestsAreRefused() {
        assertEquals("missing_field", Api.post("/api/chat/completions", chat.owner(), Json.createObjectBuilder().build()).expect(400).errorCode());
        assertEquals("invalid_message", Api.post("/api/chat/completions", chat.owner(), Json.createObjectBuilder().add("messages",
                Json.createArrayBuilder().add(Json.createObjectBuilder().add("role", "tool").add("content", "x"))).build()).expect(400).errorCode());
        assertEquals("invalid_tool", Api.post("/api/chat/completions", chat.owner(), Json.createObjectBuilder()
                .add("messages", Json.createArrayBuilder().add(Chat.user("x")))
                .add("tools", Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "function"))).build()).expect(400).errorCode());
        assertEquals("not_found", Api.post("/api/chat/completions", bob.token(), Json.createObjectBuilder().add("assistant_id", chat.assistant())
                .add("messages", Json.createArrayBuilder().add(Chat.user("x"))).build()).expect(404).errorCode());
        assertEquals("invalid_json", Api.post("/api/chat/completions", chat.owner(), "{").expect(400).errorCode());
        assertEquals(401, Api.post("/api/chat/completions", null, Json.createObjectBuilder().build()).status());
    }
}
