package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.Servers;
import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The aggregated {@code /mcp} through the official TypeScript SDK client, in front of two shared server-everything
 * backends the admin registered: one over stdio, one over streamable HTTP. The IT server pages tools by 5.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GatewayStreamableHttpIT {

    static String admin;
    @RegisterExtension
    static final NewUser user = new NewUser();
    static ServerEverything http;
    static String stdioName;
    static String httpName;
    static int toolsPerBackend;

    @BeforeAll
    static void registerBackends() {
        admin = Api.adminToken();
        removeLeftovers();
        http = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        String run = UUID.randomUUID().toString().substring(0, 6);
        stdioName = Servers.GATEWAY_PREFIX + "stdio-" + run;
        httpName = Servers.GATEWAY_PREFIX + "http-" + run;
        long stdioId = register(Json.createObjectBuilder().add("name", stdioName).add("command", "node")
                .add("args", Json.createArrayBuilder().add(ServerEverything.entryPoint().toString()).add("stdio")));
        register(Json.createObjectBuilder().add("name", httpName).add("baseUrl", http.url()));
        toolsPerBackend = Api.get("/api/mcp-servers/" + stdioId + "/tools", admin).expect(200).json().getJsonArray("data").size();
    }

    @AfterAll
    static void stop() {
        removeLeftovers();
        if (http != null) {
            http.close();
        }
    }

    static long register(jakarta.json.JsonObjectBuilder server) {
        return Servers.register(admin, server.add("scope", "shared").build());
    }

    /** Shared servers of earlier runs (the IT database outlives a run) would join the aggregation. */
    static void removeLeftovers() {
        Servers.removeNamed(name -> name.startsWith(Servers.GATEWAY_PREFIX));
    }

    static JsonObject step(String op) {
        return Json.createObjectBuilder().add("op", op).build();
    }

    static JsonObject call(String name, JsonObject arguments) {
        return Json.createObjectBuilder().add("op", "call").add("name", name).add("arguments", arguments).build();
    }

    static JsonObject echo(String backend, String message) {
        return call(backend + "__echo", Json.createObjectBuilder().add("message", message).build());
    }

    static List<String> names(JsonObject listing) {
        return listing.getJsonArray("names").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    @Test
    @Order(1)
    void initializeNamesSwitchboardAndOffersTools() {
        JsonObject init = GatewayClient.run(user.token(), JsonValue.EMPTY_JSON_ARRAY).getJsonObject("initialize");
        assertEquals("switchboard", init.getJsonObject("serverInfo").getString("name"));
        assertTrue(init.getJsonObject("capabilities").containsKey("tools"), init::toString);
        assertEquals("2025-11-25", init.getString("protocolVersion"));
        assertTrue(init.getString("sessionId").length() >= 32, "an unguessable session id");
    }

    @Test
    @Order(2)
    void listsBothBackendsAcrossPagesUnderGatewayNames() {
        JsonObject listing = GatewayClient.single(user.token(), step("listAll"));
        List<String> names = names(listing);
        List<String> ours = names.stream().filter(n -> n.startsWith(stdioName + "__") || n.startsWith(httpName + "__")).toList();
        assertEquals(2 * toolsPerBackend, ours.size(), names::toString);
        assertEquals(names.size(), new HashSet<>(names).size(), "no tool twice across pages");
        assertTrue(ours.containsAll(List.of(stdioName + "__echo", httpName + "__echo",
                stdioName + "__trigger-long-running-operation")), names::toString);
        assertTrue(names.stream().allMatch(n -> n.matches("^[A-Za-z0-9_.-]{1,128}$")), names::toString);
        JsonArray pages = listing.getJsonArray("pages");
        assertTrue(pages.size() >= (2 * toolsPerBackend) / 5, pages::toString);
        assertTrue(pages.getValuesAs(jakarta.json.JsonNumber.class).stream().allMatch(p -> p.intValue() <= 5), pages::toString);
        assertEquals(names, names(GatewayClient.single(user.token(), step("listAll"))), "stable order");
    }

    @Test
    @Order(3)
    void callsEchoOnEachBackend() {
        JsonArray steps = GatewayClient.run(user.token(), Json.createArrayBuilder()
                .add(echo(stdioName, "through stdio")).add(echo(httpName, "through http")).build()).getJsonArray("steps");
        assertTrue(steps.getJsonObject(0).getJsonObject("result").toString().contains("through stdio"), steps::toString);
        assertTrue(steps.getJsonObject(1).getJsonObject("result").toString().contains("through http"), steps::toString);
        assertFalse(steps.getJsonObject(0).getJsonObject("result").getBoolean("isError", false));
    }

    @Test
    @Order(4)
    void theLongRunningToolStreamsItsProgress() {
        JsonObject step = Json.createObjectBuilder(call(stdioName + "__trigger-long-running-operation",
                Json.createObjectBuilder().add("duration", 1.5).add("steps", 3).build())).add("progress", true).build();
        JsonObject outcome = GatewayClient.single(user.token(), step);
        assertTrue(outcome.getJsonObject("result").toString().contains("completed"), outcome::toString);
        JsonArray progress = outcome.getJsonArray("progress");
        assertEquals(3, progress.size(), outcome::toString);
        assertEquals(3, progress.getJsonObject(2).getInt("progress"));
        assertEquals(3, progress.getJsonObject(2).getInt("total"));
    }

    @Test
    @Order(5)
    void unknownToolsAndMethodsAreRpcErrors() {
        JsonObject unknown = GatewayClient.single(user.token(), call(stdioName + "__no-such-tool", JsonValue.EMPTY_JSON_OBJECT));
        assertEquals(-32602, unknown.getJsonObject("error").getInt("code"), unknown::toString);
        JsonObject noBackend = GatewayClient.single(user.token(), call("nobody__echo", JsonValue.EMPTY_JSON_OBJECT));
        assertEquals(-32602, noBackend.getJsonObject("error").getInt("code"), noBackend::toString);
        assertTrue(GatewayClient.single(user.token(), step("ping")).containsKey("result"));
    }

    @Test
    @Order(5)
    void resourcesPromptsCompletionsAndLoggingRouteToTheirBackend() {
        String resource = "switchboard://" + httpName + "/demo://resource/static/document/architecture.md";
        JsonObject ref = Json.createObjectBuilder().add("type", "ref/prompt").add("name", stdioName + "__completable-prompt").build();
        JsonObject output = GatewayClient.run(user.token(), Json.createArrayBuilder()
                .add(step("listResources"))
                .add(step("listResourceTemplates"))
                .add(Json.createObjectBuilder().add("op", "readResource").add("uri", resource))
                .add(Json.createObjectBuilder().add("op", "subscribe").add("uri", resource))
                .add(Json.createObjectBuilder().add("op", "unsubscribe").add("uri", resource))
                .add(step("listPrompts"))
                .add(Json.createObjectBuilder().add("op", "getPrompt").add("name", stdioName + "__args-prompt")
                        .add("arguments", Json.createObjectBuilder().add("city", "Porto")))
                .add(Json.createObjectBuilder().add("op", "complete").add("ref", ref)
                        .add("argument", Json.createObjectBuilder().add("name", "department").add("value", "Sa")))
                .add(Json.createObjectBuilder().add("op", "setLevel").add("level", "warning"))
                .build());
        JsonObject capabilities = output.getJsonObject("initialize").getJsonObject("capabilities");
        assertTrue(capabilities.getJsonObject("resources").getBoolean("subscribe"), capabilities::toString);
        assertTrue(capabilities.containsKey("prompts") && capabilities.containsKey("completions")
                && capabilities.containsKey("logging"), capabilities::toString);
        JsonArray steps = output.getJsonArray("steps");
        steps.forEach(s -> assertFalse(s.asJsonObject().containsKey("error"), steps::toString));
        assertTrue(steps.getJsonObject(0).getJsonArray("items").toString().contains(resource), steps::toString);
        assertTrue(steps.getJsonObject(1).getJsonArray("items").toString()
                .contains("switchboard://" + stdioName + "/demo://resource/dynamic/text/{resourceId}"), steps::toString);
        assertEquals(resource, steps.getJsonObject(2).getJsonObject("result").getJsonArray("contents")
                .getJsonObject(0).getString("uri"));
        assertTrue(steps.getJsonObject(5).getJsonArray("items").toString().contains(httpName + "__simple-prompt"), steps::toString);
        assertTrue(steps.getJsonObject(6).toString().contains("Porto"), steps::toString);
        assertTrue(steps.getJsonObject(7).toString().contains("Sales"), steps::toString);
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, steps.getJsonObject(8).getJsonObject("result"));
    }

    @Test
    @Order(5)
    void resourceLinksInAToolResultAreReadBackThroughTheGateway() {
        JsonObject result = GatewayClient.single(user.token(), call(httpName + "__get-resource-links",
                Json.createObjectBuilder().add("count", 2).build())).getJsonObject("result");
        JsonArray content = result.getJsonArray("content");
        assertEquals("text", content.getJsonObject(0).getString("type"), content::toString);
        String textLink = content.getJsonObject(2).getString("uri");
        assertEquals("resource_link", content.getJsonObject(2).getString("type"));
        assertTrue(textLink.startsWith("switchboard://" + httpName + "/demo://resource/dynamic/text/"), content::toString);
        JsonObject read = GatewayClient.single(user.token(), Json.createObjectBuilder().add("op", "readResource").add("uri", textLink).build());
        JsonObject contents = read.getJsonObject("result").getJsonArray("contents").getJsonObject(0);
        assertEquals(textLink, contents.getString("uri"), read::toString);
        assertTrue(contents.getString("text").contains("2"), read::toString);
    }

    /**
     * Backends are offered URL-mode elicitation (one pooled session serves many clients); the gateway asks it only of a
     * client that declared {@code elicitation.url}, and tells the backend why when the client did not.
     */
    @Test
    @Order(5)
    void aUrlModeElicitationReachesOnlyAClientThatDeclaredIt() {
        JsonObject arguments = Json.createObjectBuilder().add("url", "https://example.com/consent").add("elicitationId", "it-url-1").build();
        JsonObject formsOnly = GatewayClient.run(user.token(), Json.createArrayBuilder()
                .add(call(httpName + "__trigger-url-elicitation", arguments)).build());
        assertTrue(formsOnly.getJsonArray("steps").getJsonObject(0).toString().contains("elicitation.url"), formsOnly::toString);
        assertTrue(formsOnly.getJsonArray("asked").getValuesAs(JsonObject.class).stream()
                .noneMatch(a -> "elicitation/create".equals(a.getString("method"))), formsOnly::toString);

        JsonObject both = GatewayClient.run(user.token(), Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "declare").add("capabilities", Json.createObjectBuilder()
                        .add("elicitation", Json.createObjectBuilder().add("form", JsonValue.EMPTY_JSON_OBJECT).add("url", JsonValue.EMPTY_JSON_OBJECT))))
                .add(call(httpName + "__trigger-url-elicitation", arguments)).build());
        assertTrue(both.getJsonArray("steps").getJsonObject(1).toString().contains("User completed the URL elicitation flow"), both::toString);
        JsonObject asked = both.getJsonArray("asked").getValuesAs(JsonObject.class).stream()
                .filter(a -> "elicitation/create".equals(a.getString("method"))).findFirst().orElseThrow();
        assertEquals("url", asked.getJsonObject("params").getString("mode"));
        assertEquals("https://example.com/consent", asked.getJsonObject("params").getString("url"));
        assertEquals("it-url-1", asked.getJsonObject("params").getString("elicitationId"));
    }

    @Test
    @Order(5)
    void aBackendsSamplingAndElicitationAreAnsweredByTheCallingClient() {
        JsonObject output = GatewayClient.run(user.token(), Json.createArrayBuilder()
                .add(call(httpName + "__trigger-sampling-request", Json.createObjectBuilder().add("prompt", "hi").build()))
                .add(call(stdioName + "__trigger-elicitation-request", JsonValue.EMPTY_JSON_OBJECT))
                .build());
        JsonArray steps = output.getJsonArray("steps");
        assertTrue(steps.getJsonObject(0).toString().contains("sampled by the IT client"), output::toString);
        assertTrue(steps.getJsonObject(1).toString().contains("Grace Hopper"), output::toString);
        // server-everything also asks for roots when it connects; that reaches this client too (see GatewayRootsIT)
        List<String> asked = output.getJsonArray("asked").getValuesAs(JsonObject.class).stream()
                .map(a -> a.getString("method")).filter(method -> !"roots/list".equals(method)).toList();
        assertEquals(List.of("sampling/createMessage", "elicitation/create"), asked);
    }

    @Test
    @Order(6)
    void aCancelledCallEndsPromptlyAndTheBackendStaysUsable() {
        JsonObject cancel = Json.createObjectBuilder().add("op", "cancel").add("name", stdioName + "__trigger-long-running-operation")
                .add("arguments", Json.createObjectBuilder().add("duration", 20).add("steps", 20)).add("afterMs", 700).build();
        JsonArray steps = GatewayClient.run(user.token(), Json.createArrayBuilder().add(cancel).add(echo(stdioName, "after cancel")).build())
                .getJsonArray("steps");
        JsonObject cancelled = steps.getJsonObject(0);
        assertTrue(cancelled.getBoolean("aborted"), cancelled::toString);
        assertTrue(cancelled.getInt("ms") < 5_000, cancelled::toString);
        assertTrue(steps.getJsonObject(1).getJsonObject("result").toString().contains("after cancel"), steps::toString);
    }

    @Test
    @Order(7)
    void notificationsCancelledStopsTheRequestItNames() throws Exception {
        HttpResponse<String> init = McpHttp.initialize(user.token(), null);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        String call = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", "slow-1").add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", stdioName + "__trigger-long-running-operation")
                        .add("arguments", Json.createObjectBuilder().add("duration", 20).add("steps", 20))).build().toString();
        long started = System.nanoTime();
        CompletableFuture<HttpResponse<String>> answer = CompletableFuture.supplyAsync(() -> McpHttp.send("POST", call,
                "Authorization", "Bearer " + user.token(), "Accept", "application/json", "Content-Type", "application/json",
                "Mcp-Session-Id", session));
        Thread.sleep(1_000);
        String cancel = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"slow-1\"}}";
        assertEquals(202, McpHttp.send("POST", cancel, "Authorization", "Bearer " + user.token(), "Accept", McpHttp.BOTH,
                "Content-Type", "application/json", "Mcp-Session-Id", session).statusCode());
        HttpResponse<String> cancelled = answer.get(10, TimeUnit.SECONDS);
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 8, "answered long before the tool would finish");
        assertEquals(-32800, McpHttp.rpcCode(cancelled), cancelled::body);
        JsonObject after = GatewayClient.single(user.token(), echo(stdioName, "still serving"));
        assertTrue(after.getJsonObject("result").toString().contains("still serving"), after::toString);
    }

    @Test
    @Order(8)
    void anApiKeyIsACallerUntilItIsRevoked() {
        JsonObject key = Api.post("/api/api-keys", user.token(), Json.createObjectBuilder().add("name", "gateway-it").build()).expect(201).json();
        JsonObject outcome = GatewayClient.single(key.getString("key"), echo(httpName, "with a key"));
        assertTrue(outcome.getJsonObject("result").toString().contains("with a key"), outcome::toString);
        Api.delete("/api/api-keys/" + key.getJsonNumber("id"), user.token()).expect(204);
        assertEquals(401, McpHttp.initialize(key.getString("key"), null).statusCode());
    }

    @Test
    @Order(9)
    void aKilledBackendIsUnavailableWhileTheOtherStillLists() {
        http.kill();
        JsonArray steps = GatewayClient.run(user.token(), Json.createArrayBuilder().add(echo(httpName, "anyone?")).add(step("listAll")).build())
                .getJsonArray("steps");
        assertEquals(-32030, steps.getJsonObject(0).getJsonObject("error").getInt("code"), steps::toString);
        List<String> names = names(steps.getJsonObject(1));
        assertTrue(names.contains(stdioName + "__echo"), names::toString);
        assertTrue(names.stream().noneMatch(n -> n.startsWith(httpName + "__")), names::toString);
    }
}
