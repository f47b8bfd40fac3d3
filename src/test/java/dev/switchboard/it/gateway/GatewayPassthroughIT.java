package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.SharedEverything;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /mcp/servers/{name}}: one shared server-everything as it is, through the official SDK client and through
 * every server scenario of the conformance suite, run side by side against the passthrough and directly against the
 * backend. The table goes to {@code target/gateway-passthrough-conformance.md}; a scenario may fail through us only
 * where it fails directly too.
 */
class GatewayPassthroughIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("pt");
    /** The proxy adds its user's token for the conformance suite; the test's own requests use the same token. */
    @RegisterExtension
    static final TokenProxy proxy = new TokenProxy();

    @Test
    void theSdkClientSeesTheBackendUnrenamed() {
        JsonObject output = GatewayClient.runScript("gateway-client.mjs", Api.BASE + "/mcp/servers/" + backend.name(), proxy.token(),
                Json.createArrayBuilder().add(Json.createObjectBuilder().add("op", "listAll"))
                        .add(Json.createObjectBuilder().add("op", "call").add("name", "echo")
                                .add("arguments", Json.createObjectBuilder().add("message", "as it is")))
                        .add(Json.createObjectBuilder().add("op", "readResource")
                                .add("uri", "demo://resource/static/document/architecture.md"))
                        .add(Json.createObjectBuilder().add("op", "call").add("name", "trigger-sampling-request")
                                .add("arguments", Json.createObjectBuilder().add("prompt", "hi")))
                        .build());
        assertTrue(output.getJsonObject("initialize").getJsonObject("serverInfo").getString("name").contains("everything"),
                output::toString);
        JsonArray steps = output.getJsonArray("steps");
        List<String> names = steps.getJsonObject(0).getJsonArray("names").getValuesAs(JsonString.class).stream()
                .map(JsonString::getString).toList();
        assertTrue(names.contains("echo") && names.stream().noneMatch(n -> n.contains("__")), names::toString);
        assertTrue(steps.getJsonObject(1).toString().contains("as it is"), steps::toString);
        assertTrue(steps.getJsonObject(2).toString().contains("demo://resource/static/document/architecture.md"), steps::toString);
        assertTrue(steps.getJsonObject(3).toString().contains("sampled by the IT client"), steps::toString);
    }

    @Test
    void anUnknownServerIs404AndSessionsDoNotCrossEndpoints() throws Exception {
        var http = HttpClient.newHttpClient();
        String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";
        var unknown = http.send(post("/mcp/servers/no-such-server", init, null), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, unknown.statusCode());
        var opened = http.send(post("/mcp/servers/" + backend.name(), init, null), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, opened.statusCode(), opened::body);
        String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
        var elsewhere = http.send(post("/mcp", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", session),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, elsewhere.statusCode());
    }

    private static HttpRequest post(String path, String body, String session) {
        var request = HttpRequest.newBuilder(URI.create(Api.BASE + path))
                .header("Authorization", "Bearer " + proxy.token()).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return request.build();
    }

    @Test
    void everyServerScenarioFailsThroughUsOnlyWhereItFailsDirectly() throws Exception {
        StringBuilder report = new StringBuilder("# Conformance 0.1.13: /mcp/servers/{name} vs server-everything directly\n\n"
                + "| scenario | through /mcp/servers/{name} | directly |\n| --- | --- | --- |\n");
        List<String> onlyThroughUs = new ArrayList<>();
        for (String scenario : ConformanceSuite.SERVER_SCENARIOS) {
            String through = ConformanceSuite.run(proxy.url("/mcp/servers/" + backend.name()), scenario, "passthrough");
            String direct = ConformanceSuite.run(backend.url(), scenario, "direct");
            report.append("| ").append(scenario).append(" | ").append(through).append(" | ").append(direct).append(" |\n");
            if (!through.startsWith("pass") && direct.startsWith("pass")) {
                onlyThroughUs.add(scenario + ": " + through);
            }
        }
        Files.writeString(Paths.get("target", "gateway-passthrough-conformance.md"), report);
        assertEquals(List.of(), onlyThroughUs, report::toString);
    }
}
