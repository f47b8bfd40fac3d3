package dev.switchboard.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Streamable HTTP rules of {@code /mcp} on the wire: sessions, headers, status codes and refused input. */
class GatewayHttpEdgesIT {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final String BOTH = "application/json, text/event-stream";
    static String token;

    @BeforeAll
    static void login() {
        Api.awaitReady();
        token = Api.newUser("default");
    }

    static HttpResponse<String> send(String method, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Api.BASE + "/mcp")).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(method + " /mcp failed: " + e, e);
        }
    }

    static String initializeBody(String version) {
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", "initialize")
                .add("params", Json.createObjectBuilder().add("protocolVersion", version)
                        .add("capabilities", Json.createObjectBuilder())
                        .add("clientInfo", Json.createObjectBuilder().add("name", "raw").add("version", "1"))).build().toString();
    }

    static HttpResponse<String> initialize(String bearer, String origin) {
        return origin == null
                ? send("POST", initializeBody("2025-11-25"), "Authorization", "Bearer " + bearer, "Accept", BOTH, "Content-Type", "application/json")
                : send("POST", initializeBody("2025-11-25"), "Authorization", "Bearer " + bearer, "Accept", BOTH,
                "Content-Type", "application/json", "Origin", origin);
    }

    static String newSession() {
        HttpResponse<String> init = initialize(token, null);
        assertEquals(200, init.statusCode(), init::body);
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    static HttpResponse<String> inSession(String session, String body, String... more) {
        String[] headers = new String[8 + more.length];
        String[] base = {"Authorization", "Bearer " + token, "Accept", BOTH, "Content-Type", "application/json", "Mcp-Session-Id", session};
        System.arraycopy(base, 0, headers, 0, base.length);
        System.arraycopy(more, 0, headers, base.length, more.length);
        return send("POST", body, headers);
    }

    static JsonObject json(HttpResponse<String> response) {
        try (var reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        }
    }

    static int rpcCode(HttpResponse<String> response) {
        return json(response).getJsonObject("error").getInt("code");
    }

    static String request(int id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\"}";
    }

    @Test
    void initializeOpensASessionAndNegotiatesTheVersion() {
        HttpResponse<String> init = initialize(token, null);
        assertEquals(200, init.statusCode(), init::body);
        assertTrue(init.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
        JsonObject result = json(init).getJsonObject("result");
        assertEquals("2025-11-25", result.getString("protocolVersion"));
        assertEquals("switchboard", result.getJsonObject("serverInfo").getString("name"));
        String older = json(send("POST", initializeBody("2025-06-18"), "Authorization", "Bearer " + token,
                "Accept", BOTH, "Content-Type", "application/json")).getJsonObject("result").getString("protocolVersion");
        assertEquals("2025-06-18", older);
        String unknown = json(send("POST", initializeBody("2031-01-01"), "Authorization", "Bearer " + token,
                "Accept", BOTH, "Content-Type", "application/json")).getJsonObject("result").getString("protocolVersion");
        assertEquals("2025-11-25", unknown, "a version we do not speak gets our latest");
    }

    @Test
    void withoutATokenNothingIsServed() {
        assertEquals(401, send("POST", initializeBody("2025-11-25"), "Accept", BOTH, "Content-Type", "application/json").statusCode());
        assertEquals(401, initialize("not-a-token", null).statusCode());
    }

    @Test
    void originsOutsideTheAllowListAreForbidden() {
        HttpResponse<String> evil = initialize(token, "http://evil.example");
        assertEquals(403, evil.statusCode());
        assertEquals(-32600, rpcCode(evil));
        assertEquals(403, initialize(token, "null").statusCode());
        assertEquals(200, initialize(token, "http://localhost:3000").statusCode());
        assertEquals(200, initialize(token, "http://127.0.0.1:6274").statusCode());
    }

    @Test
    void malformedJsonIsAParseError() {
        HttpResponse<String> response = inSession(newSession(), "{\"jsonrpc\": \"2.0\", \"id\": 1, ");
        assertEquals(400, response.statusCode());
        assertEquals(-32700, rpcCode(response));
    }

    @Test
    void batchesAreRefusedClearly() {
        HttpResponse<String> response = inSession(newSession(), "[" + request(1, "ping") + "," + request(2, "ping") + "]");
        assertEquals(400, response.statusCode());
        assertEquals(-32600, rpcCode(response));
        assertTrue(json(response).getJsonObject("error").getString("message").contains("batch"), response::body);
    }

    @Test
    void anUnsupportedVersionHeaderListsTheSupportedOnes() {
        String session = newSession();
        HttpResponse<String> response = inSession(session, request(2, "ping"), "MCP-Protocol-Version", "2099-01-01");
        assertEquals(400, response.statusCode());
        JsonObject error = json(response).getJsonObject("error");
        assertEquals(-32600, error.getInt("code"));
        assertTrue(error.getString("message").contains("2025-11-25") && error.getString("message").contains("2025-03-26"), error::toString);
        assertEquals(4, error.getJsonObject("data").getJsonArray("supported").size(), error::toString);
        assertEquals(200, inSession(session, request(3, "ping"), "MCP-Protocol-Version", "2024-11-05").statusCode(),
                "2024-11-05 with compatibility.legacyHttpSse, which the IT server turns on");
        assertEquals(200, inSession(session, request(4, "ping")).statusCode(), "no header means 2025-03-26");
        assertEquals(200, inSession(session, request(5, "ping"), "MCP-Protocol-Version", "2025-11-25").statusCode());
    }

    @Test
    void sessionsAreRequiredKnownAndEndedByDelete() {
        assertEquals(404, inSession("no-such-session", request(1, "ping")).statusCode());
        HttpResponse<String> missing = send("POST", request(1, "ping"), "Authorization", "Bearer " + token, "Accept", BOTH,
                "Content-Type", "application/json");
        assertEquals(400, missing.statusCode());
        String session = newSession();
        assertEquals(404, send("POST", request(1, "ping"), "Authorization", "Bearer " + Api.newUser("default"), "Accept", BOTH,
                "Content-Type", "application/json", "Mcp-Session-Id", session).statusCode(), "another caller's session is unknown");
        assertEquals(200, inSession(session, request(1, "ping")).statusCode());
        assertEquals(200, send("DELETE", null, "Authorization", "Bearer " + token, "Mcp-Session-Id", session).statusCode());
        assertEquals(404, inSession(session, request(2, "ping")).statusCode());
        assertEquals(404, send("DELETE", null, "Authorization", "Bearer " + token, "Mcp-Session-Id", session).statusCode());
    }

    @Test
    void notificationsAndResponsesAreAccepted() {
        String session = newSession();
        assertEquals(202, inSession(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode());
        assertEquals(202, inSession(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":99}}").statusCode());
        assertEquals(202, inSession(session, "{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{}}").statusCode());
    }

    @Test
    void requestsAreAnsweredAsJsonOrAsAStream() {
        String session = newSession();
        HttpResponse<String> pong = inSession(session, request(7, "ping"));
        assertEquals(200, pong.statusCode());
        assertEquals(7, json(pong).getInt("id"));
        HttpResponse<String> unknown = inSession(session, request(8, "no/such/method"));
        assertEquals(-32601, rpcCode(unknown));
        HttpResponse<String> streamed = send("POST", request(9, "ping"), "Authorization", "Bearer " + token,
                "Accept", "text/event-stream", "Content-Type", "application/json", "Mcp-Session-Id", session);
        assertEquals(200, streamed.statusCode());
        assertTrue(streamed.headers().firstValue("Content-Type").orElseThrow().startsWith("text/event-stream"));
        assertTrue(streamed.body().contains("data: {\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}"), streamed::body);
    }

    @Test
    void oversizedBodiesAreRefused() {
        String session = newSession();
        String huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":{\"pad\":\"" + "x".repeat(4 * 1024 * 1024) + "\"}}}";
        HttpResponse<String> response = inSession(session, huge);
        assertEquals(413, response.statusCode());
        assertEquals(-32600, rpcCode(response));
    }

    @Test
    void getOpensTheSessionsStreamUntilTheSessionEnds() throws Exception {
        String session = newSession();
        HttpRequest get = HttpRequest.newBuilder(URI.create(Api.BASE + "/mcp")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).GET().build();
        HttpResponse<InputStream> stream = HTTP.send(get, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, stream.statusCode());
        assertTrue(stream.headers().firstValue("Content-Type").orElseThrow().startsWith("text/event-stream"));
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            assertEquals("id: 0-0", reader.readLine(), "the priming event names the GET stream's position");
            assertEquals("retry: 1000", reader.readLine());
            assertEquals("data: ", reader.readLine());
            assertEquals(200, send("DELETE", null, "Authorization", "Bearer " + token, "Mcp-Session-Id", session).statusCode());
            String line;
            while ((line = reader.readLine()) != null) {
                assertTrue(line.isEmpty() || line.startsWith(":"), line);
            }
        }
        assertEquals(404, send("GET", null, "Authorization", "Bearer " + token, "Accept", "text/event-stream",
                "Mcp-Session-Id", session).statusCode());
    }
}
