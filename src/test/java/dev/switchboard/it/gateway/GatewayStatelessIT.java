package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.SharedEverything;
import dev.switchboard.testing.McpSchemaValidator;
import dev.switchboard.testing.McpSchemaValidator.Sender;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MCP 2026-07-28 (the stateless era) on {@code /mcp} and {@code /mcp/servers/{name}} beside the session era: the
 * official TypeScript SDK v2 client lists and calls a shared server-everything's tools, reads its resources, gets its
 * prompts and completes an argument through the aggregated endpoint, an SDK 1.x client still opens its session on
 * the same endpoint, and raw requests meet each check of the era with its own error. Every message of every 2026
 * exchange validates against the 2026-07-28 schema.
 */
class GatewayStatelessIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("stateless");
    static String token;

    @BeforeAll
    static void caller() {
        token = Api.newUser("default");
    }

    private static String tool(String own) {
        return backend.name() + "__" + own;
    }

    private static JsonObject step(String op) {
        return Json.createObjectBuilder().add("op", op).build();
    }

    @Test
    void theSdkV2ClientUsesTheAggregatedEndpointStatelessly() {
        String resource = "switchboard://" + backend.name() + "/demo://resource/static/document/architecture.md";
        JsonObject ref = Json.createObjectBuilder().add("type", "ref/prompt").add("name", tool("completable-prompt")).build();
        JsonObject output = GatewayClient.run2026(Api.BASE + "/mcp", token, Json.createArrayBuilder()
                .add(step("listAll"))
                .add(Json.createObjectBuilder().add("op", "call").add("name", tool("echo"))
                        .add("arguments", Json.createObjectBuilder().add("message", "stateless hello")))
                .add(Json.createObjectBuilder().add("op", "call").add("name", tool("trigger-long-running-operation"))
                        .add("arguments", Json.createObjectBuilder().add("duration", 1).add("steps", 2)).add("progress", true))
                .add(step("listResources"))
                .add(Json.createObjectBuilder().add("op", "readResource").add("uri", resource))
                .add(step("listResourceTemplates"))
                .add(step("listPrompts"))
                .add(Json.createObjectBuilder().add("op", "getPrompt").add("name", tool("args-prompt"))
                        .add("arguments", Json.createObjectBuilder().add("city", "Porto")))
                .add(Json.createObjectBuilder().add("op", "complete").add("ref", ref)
                        .add("argument", Json.createObjectBuilder().add("name", "department").add("value", "Sa")))
                .build());
        assertFalse(output.containsKey("fatal"), output::toString);
        assertEquals("2026-07-28", output.getJsonObject("connected").getString("protocolVersion"), output::toString);
        JsonArray steps = output.getJsonArray("steps");
        steps.forEach(s -> assertFalse(s.asJsonObject().containsKey("error"), () -> "every step succeeds: " + steps));
        assertTrue(steps.getJsonObject(0).getJsonArray("names").toString().contains("\"" + tool("echo") + "\""), steps::toString);
        assertTrue(steps.getJsonObject(1).toString().contains("stateless hello"), steps::toString);
        assertTrue(steps.getJsonObject(2).toString().contains("completed"), steps::toString);
        assertEquals(2, steps.getJsonObject(2).getJsonArray("progress").size(), () -> "progress on the call's own stream: " + steps);
        assertTrue(steps.getJsonObject(3).getJsonArray("items").toString().contains(resource), steps::toString);
        assertTrue(steps.getJsonObject(4).toString().contains("demo://resource/static/document/architecture.md"), steps::toString);
        assertTrue(steps.getJsonObject(5).getJsonArray("items").toString().contains("switchboard://" + backend.name() + "/"), steps::toString);
        assertTrue(steps.getJsonObject(6).getJsonArray("items").toString().contains(tool("simple-prompt")), steps::toString);
        assertTrue(steps.getJsonObject(7).toString().contains("Porto"), steps::toString);
        assertTrue(steps.getJsonObject(8).toString().contains("Sales"), steps::toString);

        List<String> problems = wireProblems(output.getJsonArray("wire"));
        assertEquals(List.of(), problems, "every message of the exchange is valid 2026-07-28");
        for (JsonValue exchange : output.getJsonArray("wire")) {
            JsonObject headers = exchange.asJsonObject().getJsonObject("headers");
            assertFalse(headers.containsKey("mcp-session-id"), () -> "no session: " + exchange);
        }
    }

    /** Every message the SDK sent and received, checked against the schema; each answer against its request's method. */
    private static List<String> wireProblems(JsonArray wire) {
        McpSchemaValidator schema = McpSchemaValidator.forVersion(StatelessPeer.VERSION);
        List<String> problems = new ArrayList<>();
        int messages = 0;
        for (JsonValue value : wire) {
            JsonObject exchange = value.asJsonObject();
            JsonObject sent = exchange.getJsonObject("sent");
            String method = sent.getString("method", null);
            problems.addAll(schema.problems(sent, Sender.CLIENT, null).stream().map(p -> "sent " + sent + ": " + p).toList());
            for (JsonValue received : exchange.getJsonArray("received")) {
                problems.addAll(schema.problems(received.asJsonObject(), Sender.SERVER, method).stream()
                        .map(p -> "received " + received + ": " + p).toList());
                messages++;
            }
        }
        assertTrue(messages >= wire.size(), () -> "an answer to every request: " + wire);
        return problems;
    }

    @Test
    void anSdk1ClientStillOpensItsSessionOnTheSameEndpoint() {
        JsonObject output = GatewayClient.run(token, Json.createArrayBuilder().add(step("listAll"))
                .add(Json.createObjectBuilder().add("op", "call").add("name", tool("echo"))
                        .add("arguments", Json.createObjectBuilder().add("message", "session era"))).build());
        assertEquals("2025-11-25", output.getJsonObject("initialize").getString("protocolVersion"), output::toString);
        assertFalse(output.getJsonObject("initialize").isNull("sessionId"), output::toString);
        assertTrue(output.getJsonArray("steps").getJsonObject(1).toString().contains("session era"), output::toString);
    }

    @Test
    void discoveryOffersWhatAStatelessClientGets() {
        StatelessPeer peer = new StatelessPeer("/mcp", token);
        StatelessPeer.Answer discover = peer.request("server/discover", Json.createObjectBuilder());
        assertEquals(200, discover.status());
        JsonObject result = discover.result();
        assertEquals("complete", result.getString("resultType"));
        assertEquals("2026-07-28", result.getJsonArray("supportedVersions").getString(0), result::toString);
        assertTrue(result.getJsonArray("supportedVersions").toString().contains("2025-11-25"), result::toString);
        JsonObject capabilities = result.getJsonObject("capabilities");
        assertTrue(capabilities.containsKey("tools") && capabilities.containsKey("prompts"), capabilities::toString);
        assertFalse(capabilities.getJsonObject("resources").containsKey("subscribe"), "no subscriptions/listen yet: " + capabilities);
        assertFalse(capabilities.containsKey("logging"), capabilities::toString);
        assertEquals("switchboard", result.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo").getString("name"));

        StatelessPeer.Answer direct = new StatelessPeer("/mcp/servers/" + backend.name(), token)
                .request("server/discover", Json.createObjectBuilder());
        assertTrue(direct.result().getJsonObject("_meta").toString().contains("everything"), "the backend's own identity: " + direct);

        StatelessPeer.Answer list = peer.request("tools/list", Json.createObjectBuilder());
        assertEquals("private", list.result().getString("cacheScope"));
        assertEquals(0, list.result().getInt("ttlMs"));
        assertEquals(List.of(), peer.schemaProblems());
    }

    @Test
    void eachCheckOfTheEraAnswersWithItsOwnError() {
        StatelessPeer peer = new StatelessPeer("/mcp", token);
        JsonObject call = peer.body("tools/call", Json.createObjectBuilder().add("name", tool("echo"))
                .add("arguments", Json.createObjectBuilder().add("message", "x")).add("_meta", StatelessPeer.meta(JsonValue.EMPTY_JSON_OBJECT)).build());

        Map<String, String> wrongMethod = new HashMap<>(StatelessPeer.headersFor(call));
        wrongMethod.put("Mcp-Method", "tools/list");
        assertRefused(peer.send(call, wrongMethod), 400, -32020, "Mcp-Method");
        Map<String, String> wrongName = new HashMap<>(StatelessPeer.headersFor(call));
        wrongName.put("Mcp-Name", tool("get-sum"));
        assertRefused(peer.send(call, wrongName), 400, -32020, "Mcp-Name");
        Map<String, String> noName = new HashMap<>(StatelessPeer.headersFor(call));
        noName.remove("Mcp-Name");
        assertRefused(peer.send(call, noName), 400, -32020, "Mcp-Name");
        Map<String, String> encoded = new HashMap<>(StatelessPeer.headersFor(call));
        encoded.put("Mcp-Name", "=?base64?" + java.util.Base64.getEncoder().encodeToString(tool("echo").getBytes()) + "?=");
        assertEquals(200, peer.send(call, encoded).status(), "a Base64 name is decoded before it is compared");
        Map<String, String> otherVersion = new HashMap<>(StatelessPeer.headersFor(call));
        otherVersion.put("MCP-Protocol-Version", "2025-11-25");
        assertRefused(peer.send(call, otherVersion), 400, -32020, "MCP-Protocol-Version");

        JsonObject future = peer.body("tools/list", Json.createObjectBuilder().add("_meta", Json.createObjectBuilder(
                StatelessPeer.meta(JsonValue.EMPTY_JSON_OBJECT).build()).add("io.modelcontextprotocol/protocolVersion", "2099-01-01")).build());
        Map<String, String> futureHeaders = new HashMap<>(StatelessPeer.headersFor(future));
        futureHeaders.put("MCP-Protocol-Version", "2099-01-01");
        JsonObject unsupported = assertRefused(peer.send(future, futureHeaders), 400, -32022, "2099-01-01");
        assertEquals("2099-01-01", unsupported.getJsonObject("data").getString("requested"));
        assertTrue(unsupported.getJsonObject("data").getJsonArray("supported").toString().contains("2026-07-28"), unsupported::toString);

        JsonObject noMeta = peer.body("tools/list", JsonValue.EMPTY_JSON_OBJECT);
        assertRefused(peer.sendInvalid(noMeta, StatelessPeer.headersFor(noMeta)), 400, -32602, "_meta");

        JsonObject sampling = assertRefused(peer.request("tools/call", Json.createObjectBuilder()
                .add("name", tool("trigger-sampling-request")).add("arguments", Json.createObjectBuilder().add("prompt", "hi"))),
                400, -32021, "sampling");
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, sampling.getJsonObject("data").getJsonObject("requiredCapabilities").getJsonObject("sampling"));

        for (String removed : List.of("ping", "initialize", "logging/setLevel", "resources/subscribe")) {
            JsonObject body = peer.body(removed, Json.createObjectBuilder().add("_meta", StatelessPeer.meta(JsonValue.EMPTY_JSON_OBJECT)).build());
            assertRefused(peer.sendInvalid(body, StatelessPeer.headersFor(body)), 404, -32601, removed);
        }
        assertRefused(peer.request("resources/read", Json.createObjectBuilder().add("uri", "switchboard://no-such-server/x")),
                200, -32602, "");
        assertEquals(List.of(), peer.schemaProblems());
    }

    /**
     * A session-era backend's sampling request, raised while serving a 2026-07-28 client's call, reaches that client as
     * an {@code input_required} result; its retry brings the answer to the backend, which was kept waiting, and gets
     * the tool's result. Raw requests show the wire; the SDK v2 client's own multi round-trip driver does the same.
     */
    @Test
    void aBackendsSamplingRequestBecomesInputRequiredAndTheRetryCompletesTheCall() {
        StatelessPeer peer = new StatelessPeer("/mcp", token);
        JsonObject sampling = Json.createObjectBuilder().add("sampling", JsonValue.EMPTY_JSON_OBJECT).build();
        JsonObject arguments = Json.createObjectBuilder().add("prompt", "name a colour").build();
        StatelessPeer.Answer first = peer.request("tools/call", Json.createObjectBuilder().add("name", tool("trigger-sampling-request"))
                .add("arguments", arguments), sampling);
        assertEquals(200, first.status(), first::toString);
        JsonObject paused = first.response().getJsonObject("result");
        assertEquals("input_required", paused.getString("resultType"), paused::toString);
        JsonObject question = paused.getJsonObject("inputRequests").getJsonObject("input-1");
        assertEquals("sampling/createMessage", question.getString("method"));
        assertTrue(question.getJsonObject("params").toString().contains("name a colour"), question::toString);

        JsonObject answer = Json.createObjectBuilder().add("role", "assistant").add("model", "it-model").add("stopReason", "endTurn")
                .add("content", Json.createObjectBuilder().add("type", "text").add("text", "teal, said the client")).build();
        StatelessPeer.Answer retried = peer.request("tools/call", Json.createObjectBuilder().add("name", tool("trigger-sampling-request"))
                .add("arguments", arguments).add("inputResponses", Json.createObjectBuilder().add("input-1", answer))
                .add("requestState", paused.getString("requestState")), sampling);
        JsonObject result = retried.response().getJsonObject("result");
        assertEquals("complete", result.getString("resultType"), retried::toString);
        assertTrue(result.toString().contains("teal, said the client"), () -> "the backend got the client's answer: " + result);

        StatelessPeer.Answer again = peer.request("tools/call", Json.createObjectBuilder().add("name", tool("trigger-sampling-request"))
                .add("arguments", arguments).add("inputResponses", Json.createObjectBuilder().add("input-1", answer))
                .add("requestState", paused.getString("requestState")), sampling);
        assertRefused(again, 200, -32602, "send the request again");
        String tampered = paused.getString("requestState").replace('A', 'B');
        assertRefused(peer.request("tools/call", Json.createObjectBuilder().add("name", tool("trigger-sampling-request"))
                .add("arguments", arguments).add("requestState", tampered), sampling), 200, -32602, "changed");
        assertEquals(List.of(), peer.schemaProblems());

        JsonObject output = GatewayClient.run2026(Api.BASE + "/mcp", token, Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "declare").add("capabilities", Json.createObjectBuilder()
                        .add("sampling", JsonValue.EMPTY_JSON_OBJECT).add("elicitation", JsonValue.EMPTY_JSON_OBJECT)))
                .add(Json.createObjectBuilder().add("op", "call").add("name", tool("trigger-sampling-request"))
                        .add("arguments", Json.createObjectBuilder().add("prompt", "through the SDK")))
                .add(Json.createObjectBuilder().add("op", "call").add("name", tool("trigger-elicitation-request")))
                .build());
        assertFalse(output.containsKey("fatal"), output::toString);
        JsonArray steps = output.getJsonArray("steps");
        assertFalse(steps.getJsonObject(1).containsKey("error"), steps::toString);
        assertTrue(steps.getJsonObject(1).toString().contains("sampled by the 2026 client"), steps::toString);
        assertFalse(steps.getJsonObject(2).containsKey("error"), steps::toString);
        assertTrue(steps.getJsonObject(2).toString().toLowerCase().contains("decline"), steps::toString);
        assertEquals(List.of("sampling/createMessage", "elicitation/create"), output.getJsonArray("asked").getValuesAs(JsonObject.class)
                .stream().map(a -> a.getString("method")).toList(), output::toString);
        assertEquals(List.of(), wireProblems(output.getJsonArray("wire")), "every message of the exchange is valid 2026-07-28");
    }

    @Test
    void getAndDeleteAreNotOfTheEra() throws Exception {
        for (String method : List.of("GET", "DELETE")) {
            HttpResponse<String> response = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(Api.BASE + "/mcp"))
                    .method(method, HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer " + token)
                    .header("Accept", "text/event-stream").header("MCP-Protocol-Version", "2026-07-28").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(405, response.statusCode(), method);
            assertEquals("POST", response.headers().firstValue("Allow").orElse(""), method);
        }
    }

    private static JsonObject assertRefused(StatelessPeer.Answer answer, int status, int code, String mentioned) {
        JsonObject error = answer.error();
        assertEquals(code, error.getInt("code"), error::toString);
        assertEquals(status, answer.status(), error::toString);
        assertTrue(error.getString("message").contains(mentioned), error::toString);
        assertTrue(answer.response().containsKey("id"), "the error answers its request: " + answer.response());
        return error;
    }
}
