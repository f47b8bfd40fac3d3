package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.SharedEverything;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static dev.switchboard.it.support.McpHttp.HTTP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The legacy HTTP+SSE transport (2024-11-05) at {@code /mcp/sse}, on because the IT server sets
 * {@code compatibility.legacyHttpSse}: the official SDK's {@code SSEClientTransport} lists, calls with progress and
 * answers a backend's sampling and roots requests, all through the aggregated gateway; the wire rules hold.
 */
class GatewayLegacySseIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("legacy");
    @RegisterExtension
    static final NewUser user = new NewUser();

    @Test
    void theSdkSseClientListsCallsAndIsAsked() {
        JsonArray steps = Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "listAll"))
                .add(Json.createObjectBuilder().add("op", "call").add("name", backend.name() + "__echo")
                        .add("arguments", Json.createObjectBuilder().add("message", "over legacy SSE")))
                .add(Json.createObjectBuilder().add("op", "call").add("name", backend.name() + "__trigger-long-running-operation")
                        .add("progress", true).add("arguments", Json.createObjectBuilder().add("duration", 1).add("steps", 2)))
                .add(Json.createObjectBuilder().add("op", "call").add("name", backend.name() + "__trigger-sampling-request")
                        .add("arguments", Json.createObjectBuilder().add("prompt", "legacy").add("maxTokens", 10)))
                .add(Json.createObjectBuilder().add("op", "ping"))
                .build();
        JsonObject output = GatewayClient.runScript("gateway-client.mjs", Api.BASE + "/mcp/sse", user.token(), steps);
        assertEquals("switchboard", output.getJsonObject("initialize").getJsonObject("serverInfo").getString("name"), output::toString);
        List<JsonObject> results = output.getJsonArray("steps").getValuesAs(JsonObject.class);
        results.forEach(r -> assertFalse(r.containsKey("error"), r::toString));
        List<String> tools = results.get(0).getJsonArray("names").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
        assertTrue(tools.contains(backend.name() + "__echo"), tools::toString);
        assertTrue(results.get(1).getJsonObject("result").toString().contains("Echo: over legacy SSE"), results.get(1)::toString);
        GatewayClient.assertProgressDelivered(results.get(2), 2);
        assertTrue(results.get(3).getJsonObject("result").toString().contains("sampled by the IT client"), results.get(3)::toString);
        // the legacy stream is there from the start, so the backend's roots/list at connect (outside any request)
        // reaches the client too
        assertEquals(List.of("roots/list", "sampling/createMessage"), output.getJsonArray("asked").getValuesAs(JsonObject.class)
                .stream().map(a -> a.getString("method")).sorted().toList());

        String subject = Api.subjectOf(user.token());
        JsonObject recorded = RecordedSessions.of(subject, "&transport=legacy_sse").get(0);
        assertEquals("/mcp/sse", recorded.getString("endpoint"));
        assertEquals("switchboard-it-client", recorded.getJsonObject("clientInfo").getString("name"));
    }

    @Test
    void theStreamAnnouncesItsEndpointAndMessagesNeedItsSession() throws Exception {
        HttpResponse<InputStream> stream = HTTP.send(HttpRequest.newBuilder(URI.create(Api.BASE + "/mcp/sse"))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + user.token())
                .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, stream.statusCode());
        String endpoint;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            String line = lines.readLine();
            while (line != null && line.startsWith(":")) {
                line = lines.readLine();
            }
            assertEquals("event: endpoint", line);
            String data = lines.readLine();
            assertTrue(data.startsWith("data: /mcp/messages?sessionId="), data);
            endpoint = data.substring("data: ".length());
            String session = endpoint.substring(endpoint.indexOf('=') + 1);

            assertEquals(202, post(endpoint, user.token(), McpHttp.request(1, "ping")).statusCode());
            assertEquals(404, post(endpoint, Api.newUser("default"), McpHttp.request(2, "ping")).statusCode(),
                    "a session answers only to its own caller");
            assertEquals(404, post("/mcp/messages?sessionId=nobody", user.token(), McpHttp.request(3, "ping")).statusCode());
            HttpResponse<String> notJson = post(endpoint, user.token(), "{not json");
            assertEquals(400, notJson.statusCode());
            assertTrue(notJson.body().contains("-32700"), notJson::body);
            assertEquals(400, post(endpoint, user.token(), "{\"jsonrpc\":\"2.0\"}").statusCode());
            assertEquals(404, McpHttp.send("POST", McpHttp.request(4, "ping"), "Authorization", "Bearer " + user.token(),
                    "Accept", McpHttp.BOTH, "Content-Type", "application/json", "Mcp-Session-Id", session).statusCode(),
                    "a legacy session is no key to the Streamable HTTP endpoint");
            // the ping's answer came on the stream
            String event;
            do {
                event = lines.readLine();
            } while (event != null && !event.startsWith("data: {"));
            assertEquals(Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("result", Json.createObjectBuilder()).build()
                    .toString(), event.substring("data: ".length()));
        }
        assertEquals(401, post("/mcp/messages?sessionId=x", "not-a-token", McpHttp.request(5, "ping")).statusCode());
    }

    private static HttpResponse<String> post(String path, String token, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(Api.BASE + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
