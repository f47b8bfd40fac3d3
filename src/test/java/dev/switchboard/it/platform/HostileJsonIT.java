package dev.switchboard.it.platform;

import dev.switchboard.it.support.Api;
import dev.switchboard.platform.json.HostileCorpus;
import dev.switchboard.platform.json.HostileCorpus.Document;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hostile JSON corpus against the running server: REST (the audit look-up that canonicalises what it is given,
 * chat requests), {@code /mcp} over HTTP, legacy HTTP+SSE and WebSocket, the query dialect over the WebSocket and TCP. Each document gets
 * the entry point's own clear error; afterwards the server is ready, and what it stores (MCP servers, tenants, the
 * audit chain) is unchanged.
 */
class HostileJsonIT {

    private static final String CALL_PREFIX = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":";
    private static final long REST_LIMIT = 1_048_576;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    /** The IT server's query dialect TCP port (pom: it.query.port). */
    private static final int QUERY_PORT = Integer.getInteger("it.query.port", 18765);

    static String admin;
    static String user;
    static String serversBefore;
    static String tenantsBefore;
    static JsonObject auditBefore;

    @BeforeAll
    static void snapshot() {
        admin = Api.adminToken();
        user = Api.newUser("default");
        serversBefore = storedServers();
        tenantsBefore = Api.get("/api/tenants", admin).expect(200).text();
        auditBefore = Api.get("/api/audit/verify?tenant=default", admin).expect(200).json();
    }

    @AfterAll
    static void nothingStoredChangedAndTheServerIsHealthy() {
        assertEquals(200, Api.get("/health/ready", null).status());
        assertEquals(serversBefore, storedServers());
        assertEquals(tenantsBefore, Api.get("/api/tenants", admin).expect(200).text());
        JsonObject audit = Api.get("/api/audit/verify?tenant=default", admin).expect(200).json();
        assertTrue(audit.getBoolean("valid"), audit::toString);
        assertTrue(audit.getInt("checked") >= auditBefore.getInt("checked"), audit::toString);
    }

    /**
     * The servers as stored: without {@code status}, the state of their pooled connections, which the pool's idle
     * reaper changes whatever the test does.
     */
    private static String storedServers() {
        var servers = Json.createArrayBuilder();
        Api.get("/api/mcp-servers", admin).expect(200).json().getJsonArray("data").getValuesAs(JsonObject.class)
                .forEach(server -> servers.add(Json.createObjectBuilder(server).remove("status")));
        return servers.build().toString();
    }

    /** The audit look-up by input hashes what it is given: the path that spent seconds on 1e9000000 before. */
    @Test
    void restBodiesAreRefusedWith400AndTheReason() throws Exception {
        assertRestRefusals("/api/audit/search-by-input", true);
    }

    /** Chat requests: the stream servlet reads the body first and leaves what it cannot read to the REST resource. */
    @Test
    void chatRequestsAreRefusedWith400AndTheReason() throws Exception {
        assertRestRefusals("/api/chat/completions", false);
    }

    @Test
    void mcpOverHttpAnswersParseErrorsWithTheReason() throws Exception {
        assertRpcRefusals("/mcp");
    }

    /** A legacy HTTP+SSE message is read before its session is looked for. */
    @Test
    void legacySseMessagesAnswerParseErrorsWithTheReason() throws Exception {
        assertRpcRefusals("/mcp/messages?sessionId=none");
    }

    private static void assertRestRefusals(String path, boolean asAuditLookup) throws Exception {
        List<String> failures = new ArrayList<>();
        for (Document document : HostileCorpus.all()) {
            byte[] body = asAuditLookup ? asAuditLookup(document.bytes()) : document.bytes();
            HttpResponse<String> reply = HTTP.send(HttpRequest.newBuilder(URI.create(Api.BASE + path))
                    .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            String expected;
            if (body.length > REST_LIMIT) {
                expected = "413 request_too_large";
            } else if (document.refused()) {
                expected = "400 invalid_json Malformed JSON: ~" + document.refusal();
            } else if (!"object".equals(document.topLevel())) {
                expected = "400 invalid_json The request body must be a JSON object, got " + document.topLevel();
            } else {
                expected = "*"; // a well-formed body: judged by the resource, not by the reader
            }
            check(failures, document, expected, restOutcome(reply));
        }
        assertTrue(failures.isEmpty(), path + ":\n" + String.join("\n", failures));
    }

    private static void assertRpcRefusals(String path) throws Exception {
        List<String> failures = new ArrayList<>();
        for (Document document : HostileCorpus.all()) {
            HttpResponse<String> reply = HTTP.send(HttpRequest.newBuilder(URI.create(Api.BASE + path))
                    .header("Authorization", "Bearer " + user).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream").timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(document.bytes())).build(), HttpResponse.BodyHandlers.ofString());
            check(failures, document, expectedRpc(document), reply.statusCode() + " " + rpcOutcome(reply.body()));
        }
        assertTrue(failures.isEmpty(), path + ":\n" + String.join("\n", failures));
    }

    @Test
    void mcpOverWebSocketAnswersParseErrorsWithTheReason() throws Exception {
        LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
        WebSocket socket = mcpSocket(received);
        List<String> failures = new ArrayList<>();
        for (Document document : HostileCorpus.text()) {
            socket.sendText(document.text(), true).get(30, TimeUnit.SECONDS);
            String answer = received.poll(30, TimeUnit.SECONDS);
            assertNotNull(answer, document + ": no answer");
            String expected = document.refused() ? "-32700 Parse error: ~" + document.refusal()
                    : "object".equals(document.topLevel()) ? "*"
                    : "-32600 Invalid Request: expected one JSON-RPC 2.0 object (batches are not supported) or a message with a type";
            check(failures, document, expected, rpcOutcome(answer));
        }
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /**
     * The query dialect over the /mcp WebSocket: each document as a dialect message ({@code "type":"request"} where it
     * has {@code "jsonrpc":"2.0"}). The socket reads a message before it knows its dialect, so a document that cannot
     * be read gets the socket's parse error; one that can goes to the dialect, which answers it in its own words.
     */
    @Test
    void theQueryDialectOverWebSocketAnswersParseErrorsWithTheReason() throws Exception {
        LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
        WebSocket socket = mcpSocket(received);
        List<String> failures = new ArrayList<>();
        int toTheDialect = 0;
        for (Document document : HostileCorpus.text()) {
            String text = document.text().replaceFirst("^\\{\"jsonrpc\":\"2\\.0\",", "{\"type\":\"request\",");
            socket.sendText(text, true).get(30, TimeUnit.SECONDS);
            String answer = received.poll(30, TimeUnit.SECONDS);
            assertNotNull(answer, document + ": no answer");
            String expected;
            if (document.refused()) {
                expected = "-32700 Parse error: ~" + document.refusal();
            } else if ("object".equals(document.topLevel())) {
                toTheDialect++;
                expected = "dialect";
            } else {
                expected = "-32600 Invalid Request: expected one JSON-RPC 2.0 object (batches are not supported) or a message with a type";
            }
            // the dialect answers with a "type"; the socket's own errors are JSON-RPC
            String actual = !expected.equals("dialect") ? rpcOutcome(answer)
                    : Json.createReader(new StringReader(answer)).readObject().containsKey("type") ? "dialect" : "not the dialect: " + excerpt(answer);
            check(failures, document, expected, actual);
        }
        assertTrue(toTheDialect > 0, "at least one readable document reached the dialect");
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void theQueryDialectOverTcpAnswersItsOwnParseError() throws Exception {
        List<String> failures = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", QUERY_PORT)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            for (Document document : HostileCorpus.all()) {
                if (document.bytes().length == 0) {
                    continue; // an empty line is skipped by the framing, as the dialect asks
                }
                out.write(document.bytes());
                out.write('\n');
                out.flush();
                JsonObject answer = Json.createReader(new StringReader(in.readLine())).readObject();
                String expected = document.refused() ? "-32700 JSON 解析错误 ~" + document.refusal()
                        : !"object".equals(document.topLevel()) ? "-32600 消息须为 JSON 对象" : "-32600";
                JsonObject error = answer.getJsonObject("error");
                String reason = error.containsKey("data") ? error.getJsonObject("data").getString("reason", "") : "";
                check(failures, document, expected, error.getInt("code") + " " + error.getString("message") + " ~" + reason);
            }
            // the connection is still served
            out.write("{\"type\":\"request\",\"id\":\"after\",\"method\":\"protocol.negotiate\",\"params\":{\"versions\":[\"1.0.0\"]}}\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            JsonObject after = Json.createReader(new StringReader(in.readLine())).readObject();
            assertEquals("after", after.getString("id"), after::toString);
            assertTrue(after.containsKey("result"), after::toString);
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** The user's WebSocket to /mcp, whose whole text messages land in {@code received}. */
    private static WebSocket mcpSocket(LinkedBlockingQueue<String> received) throws Exception {
        return HTTP.newWebSocketBuilder().header("Authorization", "Bearer " + user)
                .buildAsync(URI.create(Api.BASE.replaceFirst("^http", "ws") + "/mcp"), new Collector(received)).get(30, TimeUnit.SECONDS);
    }

    private static String expectedRpc(Document document) {
        if (document.refused()) {
            return "400 -32700 Parse error: ~" + document.refusal();
        }
        return switch (document.topLevel()) {
            case "array" -> "400 -32600 Invalid Request: JSON-RPC batches are not supported; send one message per POST";
            case "object" -> "*"; // a well-formed call: judged by the protocol (no session here), not by the reader
            default -> "400 -32600 Invalid Request: expected a JSON-RPC object";
        };
    }

    /**
     * Expected forms: "STATUS CODE MESSAGE" compared exactly up to a "~", after which the actual must contain the
     * rest; "*" accepts any answer that is not a parse error.
     */
    private static void check(List<String> failures, Document document, String expected, String actual) {
        boolean ok;
        if (expected.equals("*")) {
            ok = !actual.contains("-32700") && !actual.contains("invalid_json");
        } else if (expected.contains("~")) {
            String exact = expected.substring(0, expected.indexOf('~'));
            String fragment = expected.substring(expected.indexOf('~') + 1);
            ok = actual.startsWith(exact) && actual.substring(exact.length()).contains(fragment);
        } else {
            ok = actual.startsWith(expected);
        }
        if (!ok) {
            failures.add(document + ": expected '" + expected + "', got '" + excerpt(actual) + "'");
        }
    }

    private static String restOutcome(HttpResponse<String> reply) {
        if (reply.statusCode() / 100 == 2) {
            return String.valueOf(reply.statusCode());
        }
        JsonObject error = Json.createReader(new StringReader(reply.body())).readObject().getJsonObject("error");
        return reply.statusCode() + " " + error.getString("code") + " " + error.getString("message");
    }

    private static String rpcOutcome(String body) {
        if (body.isBlank()) {
            return "(no body)";
        }
        JsonObject answer = Json.createReader(new StringReader(body)).readObject();
        JsonObject error = answer.getJsonObject("error");
        return error == null ? "result" : error.getInt("code") + " " + error.getString("message");
    }

    /** A tools/call document as the audit look-up's body: its params become the input looked for. */
    private static byte[] asAuditLookup(byte[] document) {
        String head = new String(document, 0, Math.min(document.length, CALL_PREFIX.length()), StandardCharsets.UTF_8);
        if (!head.equals(CALL_PREFIX)) {
            return document;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"input\":".getBytes(StandardCharsets.UTF_8));
        out.write(document, CALL_PREFIX.length(), document.length - CALL_PREFIX.length());
        return out.toByteArray();
    }

    private static String excerpt(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    /** Collects whole text messages. */
    private record Collector(LinkedBlockingQueue<String> received, StringBuilder partial) implements WebSocket.Listener {

        Collector(LinkedBlockingQueue<String> received) {
            this(received, new StringBuilder());
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                received.add(partial.toString());
                partial.setLength(0);
            }
            webSocket.request(1);
            return CompletableFuture.completedFuture(null);
        }
    }
}
