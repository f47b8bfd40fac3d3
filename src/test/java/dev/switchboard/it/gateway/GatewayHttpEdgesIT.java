package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.NewUser;
import jakarta.json.JsonObject;
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

import static dev.switchboard.it.support.McpHttp.BOTH;
import static dev.switchboard.it.support.McpHttp.HTTP;
import static dev.switchboard.it.support.McpHttp.initialize;
import static dev.switchboard.it.support.McpHttp.initializeBody;
import static dev.switchboard.it.support.McpHttp.json;
import static dev.switchboard.it.support.McpHttp.request;
import static dev.switchboard.it.support.McpHttp.rpcCode;
import static dev.switchboard.it.support.McpHttp.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Streamable HTTP rules of {@code /mcp} on the wire: sessions, headers, status codes and refused input. */
class GatewayHttpEdgesIT {

    @RegisterExtension
    static final NewUser user = new NewUser();

    static String newSession() {
        return McpHttp.newSession(user.token());
    }

    static HttpResponse<String> inSession(String session, String body, String... more) {
        return McpHttp.inSession(user.token(), session, body, more);
    }

    @Test
    void initializeOpensASessionAndNegotiatesTheVersion() {
        HttpResponse<String> init = initialize(user.token(), null);
        assertEquals(200, init.statusCode(), init::body);
        assertTrue(init.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
        JsonObject result = json(init).getJsonObject("result");
        assertEquals("2025-11-25", result.getString("protocolVersion"));
        assertEquals("switchboard", result.getJsonObject("serverInfo").getString("name"));
        String older = json(send("POST", initializeBody("2025-06-18"), "Authorization", "Bearer " + user.token(),
                "Accept", BOTH, "Content-Type", "application/json")).getJsonObject("result").getString("protocolVersion");
        assertEquals("2025-06-18", older);
        String unknown = json(send("POST", initializeBody("2031-01-01"), "Authorization", "Bearer " + user.token(),
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
        HttpResponse<String> evil = initialize(user.token(), "http://evil.example");
        assertEquals(403, evil.statusCode());
        assertEquals(-32600, rpcCode(evil));
        assertEquals(403, initialize(user.token(), "null").statusCode());
        assertEquals(200, initialize(user.token(), "http://localhost:3000").statusCode());
        assertEquals(200, initialize(user.token(), "http://127.0.0.1:6274").statusCode());
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
        assertEquals(-32022, error.getInt("code"), "UnsupportedProtocolVersion, for either era");
        assertTrue(error.getString("message").contains("2025-11-25") && error.getString("message").contains("2025-03-26"), error::toString);
        assertEquals(5, error.getJsonObject("data").getJsonArray("supported").size(), "2026-07-28 and four session-era versions: " + error);
        assertEquals("2099-01-01", error.getJsonObject("data").getString("requested"));
        assertEquals(200, inSession(session, request(3, "ping"), "MCP-Protocol-Version", "2024-11-05").statusCode(),
                "2024-11-05 with compatibility.legacyHttpSse, which the IT server turns on");
        assertEquals(200, inSession(session, request(4, "ping")).statusCode(), "no header means 2025-03-26");
        assertEquals(200, inSession(session, request(5, "ping"), "MCP-Protocol-Version", "2025-11-25").statusCode());
    }

    @Test
    void sessionsAreRequiredKnownAndEndedByDelete() {
        assertEquals(404, inSession("no-such-session", request(1, "ping")).statusCode());
        HttpResponse<String> missing = send("POST", request(1, "ping"), "Authorization", "Bearer " + user.token(), "Accept", BOTH,
                "Content-Type", "application/json");
        assertEquals(400, missing.statusCode());
        String session = newSession();
        assertEquals(404, send("POST", request(1, "ping"), "Authorization", "Bearer " + Api.newUser("default"), "Accept", BOTH,
                "Content-Type", "application/json", "Mcp-Session-Id", session).statusCode(), "another caller's session is unknown");
        assertEquals(200, inSession(session, request(1, "ping")).statusCode());
        assertEquals(200, send("DELETE", null, "Authorization", "Bearer " + user.token(), "Mcp-Session-Id", session).statusCode());
        assertEquals(404, inSession(session, request(2, "ping")).statusCode());
        assertEquals(404, send("DELETE", null, "Authorization", "Bearer " + user.token(), "Mcp-Session-Id", session).statusCode());
    }

    @Test
    void notificationsAreAcceptedAndAResponseNobodyWaitsForIsRefusedSayingWhy() {
        String session = newSession();
        assertEquals(202, inSession(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode());
        assertEquals(202, inSession(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":99}}").statusCode());
        HttpResponse<String> foreign = inSession(session, "{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{}}");
        assertEquals(400, foreign.statusCode(), foreign::body);
        assertEquals("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Response refused: id \\\"s-1\\\" is not the id"
                + " of a request this gateway sent\",\"data\":{\"reason\":\"not_ours\",\"id\":\"s-1\"}}}", foreign.body());
        HttpResponse<String> late = inSession(session, "{\"jsonrpc\":\"2.0\",\"id\":\"switchboard-local.AAAAAAAAAAAAAAAAAAAAAA\",\"result\":{}}");
        assertEquals(400, late.statusCode(), late::body);
        assertEquals("not_waiting", json(late).getJsonObject("error").getJsonObject("data").getString("reason"), late::body);
        assertTrue(json(late).getJsonObject("error").getString("message").contains("names no request of this session that"
                + " waits for an answer (already answered, timed out, ended with its call, or not this session's)"), late::body);
    }

    @Test
    void requestsAreAnsweredAsJsonOrAsAStream() {
        String session = newSession();
        HttpResponse<String> pong = inSession(session, request(7, "ping"));
        assertEquals(200, pong.statusCode());
        assertEquals(7, json(pong).getInt("id"));
        HttpResponse<String> unknown = inSession(session, request(8, "no/such/method"));
        assertEquals(-32601, rpcCode(unknown));
        HttpResponse<String> streamed = send("POST", request(9, "ping"), "Authorization", "Bearer " + user.token(),
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
                .header("Authorization", "Bearer " + user.token()).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).GET().build();
        HttpResponse<InputStream> stream = HTTP.send(get, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, stream.statusCode());
        assertTrue(stream.headers().firstValue("Content-Type").orElseThrow().startsWith("text/event-stream"));
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            assertEquals("id: 0-0", reader.readLine(), "the priming event names the GET stream's position");
            assertEquals("retry: 1000", reader.readLine());
            assertEquals("data: ", reader.readLine());
            assertEquals(200, send("DELETE", null, "Authorization", "Bearer " + user.token(), "Mcp-Session-Id", session).statusCode());
            String line;
            while ((line = reader.readLine()) != null) {
                assertTrue(line.isEmpty() || line.startsWith(":"), line);
            }
        }
        assertEquals(404, send("GET", null, "Authorization", "Bearer " + user.token(), "Accept", "text/event-stream",
                "Mcp-Session-Id", session).statusCode());
    }
}
