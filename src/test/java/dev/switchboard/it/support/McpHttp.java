package dev.switchboard.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Raw Streamable HTTP exchanges with {@code /mcp}, for what the tests check on the wire (status codes, headers,
 * sessions) and what a well-behaved SDK client never sends.
 */
public final class McpHttp {

    public static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** The Accept header of a Streamable HTTP client. */
    public static final String BOTH = "application/json, text/event-stream";

    private McpHttp() {
    }

    /** Sends to {@code /mcp} with the headers given as name, value, name, value... */
    public static HttpResponse<String> send(String method, String body, String... headers) {
        return sendTo(Api.BASE, method, body, headers);
    }

    /** Sends to {@code /mcp} of the server at {@code base} (another than the IT server: a cluster member). */
    public static HttpResponse<String> sendTo(String base, String method, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/mcp")).timeout(Duration.ofSeconds(30))
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

    /** A request to {@code path} as a client without credentials would send it (in a session that does not exist). */
    public static HttpResponse<String> withoutToken(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(Api.BASE + path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Accept", BOTH).header("Content-Type", "application/json")
                .header("Mcp-Session-Id", "no-session").build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(method + " " + path + " failed: " + e, e);
        }
    }

    public static String initializeBody(String version) {
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", "initialize")
                .add("params", Json.createObjectBuilder().add("protocolVersion", version)
                        .add("capabilities", Json.createObjectBuilder())
                        .add("clientInfo", Json.createObjectBuilder().add("name", "raw").add("version", "1"))).build().toString();
    }

    /** initialize at 2025-11-25 with the bearer and, when not null, an Origin header. */
    public static HttpResponse<String> initialize(String bearer, String origin) {
        return origin == null
                ? send("POST", initializeBody("2025-11-25"), "Authorization", "Bearer " + bearer, "Accept", BOTH, "Content-Type", "application/json")
                : send("POST", initializeBody("2025-11-25"), "Authorization", "Bearer " + bearer, "Accept", BOTH,
                "Content-Type", "application/json", "Origin", origin);
    }

    /** A new session of the caller; its Mcp-Session-Id. */
    public static String newSession(String token) {
        HttpResponse<String> init = initialize(token, null);
        assertEquals(200, init.statusCode(), init::body);
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    /** Opens a session at 2025-06-18 that names its client and declares roots; its Mcp-Session-Id. */
    public static String openSession(String token, String clientName) {
        return openSession(token, clientName, "2025-06-18");
    }

    /** Opens a session at that protocol version that names its client and declares roots; its Mcp-Session-Id. */
    public static String openSession(String token, String clientName, String protocolVersion) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", "initialize")
                .add("params", Json.createObjectBuilder().add("protocolVersion", protocolVersion)
                        .add("capabilities", Json.createObjectBuilder().add("roots", Json.createObjectBuilder()))
                        .add("clientInfo", Json.createObjectBuilder().add("name", clientName).add("version", "9.9"))).build().toString();
        HttpResponse<String> init = send("POST", body, "Authorization", "Bearer " + token, "Accept", BOTH,
                "Content-Type", "application/json");
        assertEquals(200, init.statusCode(), init::body);
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    /** POSTs a body in the caller's session, with more headers as name, value... */
    public static HttpResponse<String> inSession(String token, String session, String body, String... more) {
        String[] headers = new String[8 + more.length];
        String[] base = {"Authorization", "Bearer " + token, "Accept", BOTH, "Content-Type", "application/json", "Mcp-Session-Id", session};
        System.arraycopy(base, 0, headers, 0, base.length);
        System.arraycopy(more, 0, headers, base.length, more.length);
        return send("POST", body, headers);
    }

    /** The status of a ping in the session. */
    public static int ping(String token, String session) {
        return inSession(token, session, request(2, "ping")).statusCode();
    }

    /** DELETE: ends the session; the status. */
    public static int endSession(String token, String session) {
        return send("DELETE", null, "Authorization", "Bearer " + token, "Mcp-Session-Id", session).statusCode();
    }

    public static JsonObject json(HttpResponse<String> response) {
        try (var reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        }
    }

    public static int rpcCode(HttpResponse<String> response) {
        return json(response).getJsonObject("error").getInt("code");
    }

    /** A JSON-RPC request without params. */
    public static String request(int id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\"}";
    }

    /** The JSON-RPC response of a POST, whether it came as JSON or as an SSE stream. */
    public static JsonObject response(HttpResponse<String> reply) {
        String body = reply.body().strip();
        if (!body.startsWith("{")) {
            body = body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip())
                    .filter(l -> l.contains("\"result\"") || l.contains("\"error\"")).reduce((a, b) -> b).orElseThrow();
        }
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }
}
