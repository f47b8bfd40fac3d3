package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.RecordingBackend;
import dev.switchboard.it.support.Servers;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.StringReader;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Per-backend resilience and the trace, against a real MCP backend (the official SDK's Streamable HTTP server in
 * {@code src/test/node/recording-server.mjs}) that records every header it receives: no caller credential reaches it,
 * its own configured headers do, and the caller's trace id travels from the request to the response, the audit row
 * and the backend. The breaker and bulkhead settings of these backends are in the pom's bootstrap properties.
 */
class GatewayResilienceIT {

    static final String BACKEND_HEADER_VALUE = "backend-own-key-" + Long.toHexString(System.nanoTime());
    static final String CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    @RegisterExtension
    static final NewUser user = new NewUser();
    static RecordingBackend recording;
    static RecordingBackend fragile;

    @BeforeAll
    static void start() throws Exception {
        recording = RecordingBackend.start();
        fragile = RecordingBackend.start();
        String admin = Api.adminToken();
        register(admin, "recording-it", recording, 60);
        register(admin, "narrow-it", recording, 60);
        register(admin, "slow-it", recording, 1);
        register(admin, "fragile-it", fragile, 60);
    }

    /** The servers go with their processes, so later tests' listings do not wait for dead backends. */
    @AfterAll
    static void stop() {
        Servers.removeNamed(List.of("recording-it", "narrow-it", "slow-it", "fragile-it")::contains);
        for (RecordingBackend r : new RecordingBackend[]{recording, fragile}) {
            if (r != null) {
                r.kill();
            }
        }
    }

    /** A shared server with its own credentials; one of the same name left by an interrupted run goes first. */
    static void register(String admin, String name, RecordingBackend backend, int timeoutSeconds) {
        Servers.removeNamed(name::equals);
        Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", name).add("type", "streamableHttp")
                .add("baseUrl", backend.url()).add("scope", "shared").add("timeout", timeoutSeconds)
                .add("headers", Json.createObjectBuilder().add("Authorization", "Bearer " + BACKEND_HEADER_VALUE)
                        .add("X-Backend-Key", BACKEND_HEADER_VALUE))
                .build()).expect(201);
    }

    @Test
    void callersCredentialsNeverReachTheBackendAndTheTraceDoes() {
        String apiKey = Api.post("/api/api-keys", user.token(), Json.createObjectBuilder().add("name", "trace-it").build())
                .expect(201).json().getString("key");
        for (String bearer : List.of(user.token(), apiKey)) {
            int before = recording.lines().size();
            String session = session(bearer);
            String callerTrace = "00-" + CALLER_TRACE + "-00f067aa0ba902b7-01";
            HttpResponse<String> reply = call(bearer, session, "recording-it__echo", Json.createObjectBuilder().add("message", "hi"),
                    "traceparent", callerTrace, "Cookie", "JSESSIONID=caller-cookie-" + bearer.hashCode());
            assertEquals("echo: hi", result(reply).getJsonArray("content").getJsonObject(0).getString("text"), reply.body());

            String returned = reply.headers().firstValue("traceparent").orElseThrow();
            assertTrue(returned.startsWith("00-" + CALLER_TRACE + "-"), returned);
            assertNotEquals(callerTrace, returned, "the gateway's own span");
            assertEquals(CALLER_TRACE, reply.headers().firstValue("X-Trace-Id").orElseThrow());

            List<JsonObject> received = recording.lines().subList(before, recording.lines().size());
            JsonObject toolCall = received.stream().filter(r -> "tools/call".equals(r.getString("rpc", null))).reduce((a, b) -> b).orElseThrow();
            String atBackend = toolCall.getJsonObject("headers").getString("traceparent");
            assertTrue(atBackend.startsWith("00-" + CALLER_TRACE + "-") && atBackend.endsWith("-01"), atBackend);
            assertNotEquals(returned, atBackend, "each backend call is a child span");
            for (JsonObject request : received) {
                JsonObject headers = request.getJsonObject("headers");
                assertEquals("Bearer " + BACKEND_HEADER_VALUE, headers.getString("authorization"), "the backend's own credential");
                assertEquals(BACKEND_HEADER_VALUE, headers.getString("x-backend-key"));
                assertFalse(headers.containsKey("cookie"), headers.toString());
                assertFalse(headers.toString().contains(bearer), "the caller's token or API key never arrives");
            }
            JsonObject event = awaitTrace("recording-it__echo", CALLER_TRACE);
            assertEquals("ok", event.getString("outcome"));
        }
    }

    @Test
    void overWebSocketARequestContinuesTheTraceInItsMeta() {
        String trace = UUID.randomUUID().toString().replace("-", "");
        int before = recording.lines().size();
        String traced = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 2).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", "recording-it__echo")
                        .add("arguments", Json.createObjectBuilder().add("message", "ws"))
                        .add("_meta", Json.createObjectBuilder().add("traceparent", "00-" + trace + "-00f067aa0ba902b7-01")))
                .build().toString();
        JsonObject outcome = GatewayClient.socketRaw(user.token(), McpHttp.initializeBody("2025-11-25"), traced);
        JsonObject answer = outcome.getJsonArray("answers").getJsonObject(1);
        assertTrue(answer.containsKey("result"), outcome.toString());
        assertEquals("ok", awaitTrace("recording-it__echo", trace).getString("outcome"));
        assertTrue(recording.lines().subList(before, recording.lines().size()).stream()
                .anyMatch(r -> "tools/call".equals(r.getString("rpc", null))
                        && r.getJsonObject("headers").getString("traceparent", "").startsWith("00-" + trace + "-")));
    }

    @Test
    void aMalformedTraceparentGetsANewTraceAndTheRestApiIsTracedToo() {
        String session = session(user.token());
        HttpResponse<String> reply = call(user.token(), session, "recording-it__echo",
                Json.createObjectBuilder().add("message", "x"), "traceparent", "00-not-a-trace-01");
        assertTrue(result(reply).containsKey("content"), "a bad traceparent never refuses work: " + reply.body());
        String fresh = reply.headers().firstValue("traceparent").orElseThrow();
        assertTrue(fresh.matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01"), fresh);
        String traceId = reply.headers().firstValue("X-Trace-Id").orElseThrow();
        assertEquals(fresh.substring(3, 35), traceId);
        assertEquals(traceId, awaitTrace("recording-it__echo", traceId).getString("traceId"));

        Api.Reply me = Api.send("GET", "/api/auth/me", user.token(), null);
        assertEquals(200, me.status());
        assertTrue(me.headers().firstValue("traceparent").orElseThrow().matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01"));
    }

    @Test
    void aBackendCallOverItsTimeoutIsBackendTimeout() {
        String session = session(user.token());
        long started = System.nanoTime();
        JsonObject error = error(call(user.token(), session, "slow-it__sleep", Json.createObjectBuilder().add("ms", 4000)));
        assertEquals(-32040, error.getInt("code"), error.toString());
        assertEquals("backend_timeout: slow-it did not answer tools/call in time", error.getString("message"));
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 3500, "answered at the server's 1 s timeout");
    }

    @Test
    void theBulkheadLetsTwoCallsInAndRefusesTheRest() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<String> sessions = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                sessions.add(session(user.token()));
            }
            call(user.token(), sessions.get(0), "narrow-it__echo", Json.createObjectBuilder().add("message", "warm"));
            List<Future<HttpResponse<String>>> replies = new ArrayList<>();
            for (String session : sessions) {
                replies.add(callers.submit(() -> call(user.token(), session, "narrow-it__sleep",
                        Json.createObjectBuilder().add("ms", 1500))));
            }
            int ok = 0;
            List<JsonObject> refused = new ArrayList<>();
            for (Future<HttpResponse<String>> reply : replies) {
                JsonObject rpc = McpHttp.response(reply.get(30, TimeUnit.SECONDS));
                if (rpc.containsKey("result")) {
                    ok++;
                } else {
                    refused.add(rpc.getJsonObject("error"));
                }
            }
            assertEquals(2, ok, "two calls fit: " + refused);
            assertEquals(2, refused.size());
            for (JsonObject error : refused) {
                assertEquals(-32030, error.getInt("code"));
                assertEquals("backend_unavailable: narrow-it: bulkhead full: 2 calls in flight "
                        + "(switchboard.resilience.bulkhead.max-concurrent), none finished within 200 ms; not called", error.getString("message"));
                assertEquals("narrow-it", error.getJsonObject("data").getString("backend"));
            }
            assertTrue(metric("switchboard_backend_bulkhead_rejected", "narrow-it") >= 2);
            assertEquals(2, metric("switchboard_backend_bulkhead_max", "narrow-it"));
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void theBreakerOpensOnADeadBackendAnswersAtOnceWithoutCallingItAndRecovers() throws Exception {
        String session = session(user.token());
        String echo = "fragile-it__echo";
        assertTrue(result(call(user.token(), session, echo, Json.createObjectBuilder().add("message", "up"))).containsKey("content"));
        fragile.kill();
        for (int i = 0; i < 2; i++) {
            assertEquals(-32030, error(call(user.token(), session, echo, Json.createObjectBuilder().add("message", "down"))).getInt("code"));
        }
        assertEquals(1, metric("switchboard_backend_breaker_state", "fragile-it"), "open");

        fragile.restart();
        int before = fragile.lines().size();
        long started = System.nanoTime();
        JsonObject refused = error(call(user.token(), session, echo, Json.createObjectBuilder().add("message", "again")));
        assertEquals(-32030, refused.getInt("code"));
        assertTrue(refused.getString("message").startsWith("backend_unavailable: fragile-it: circuit breaker open: 2 of the last 2 calls failed; not called before "),
                refused.getString("message"));
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 1000, "answered at once");
        assertEquals(before, fragile.lines().size(), "the open breaker did not touch the backend (which is up again)");

        Thread.sleep(6200);
        JsonObject probe = result(call(user.token(), session, echo, Json.createObjectBuilder().add("message", "probe")));
        assertEquals("echo: probe", probe.getJsonArray("content").getJsonObject(0).getString("text"));
        assertEquals(0, metric("switchboard_backend_breaker_state", "fragile-it"), "closed after the probe");
        assertTrue(metric("switchboard_backend_breaker_rejected", "fragile-it") >= 1);
    }

    @Test
    void callsAreCountedTimedAndLoggedAsJsonWithTheirFields() throws Exception {
        String session = session(user.token());
        String trace = UUID.randomUUID().toString().replace("-", "");
        call(user.token(), session, "recording-it__echo", Json.createObjectBuilder().add("message", "m"),
                "traceparent", "00-" + trace + "-00f067aa0ba902b7-01");
        call(user.token(), session, "recording-it__no-such-tool-" + trace, Json.createObjectBuilder());
        String metrics = Api.get("/metrics", null).expect(200).text();
        assertTrue(Pattern.compile("switchboard_gateway_calls_total\\{[^}]*backend=\"recording-it\"[^}]*method=\"tools/call\"[^}]*outcome=\"ok\"[^}]*tool=\"recording-it__echo\"[^}]*} [1-9]")
                .matcher(metrics).find(), metrics.lines().filter(l -> l.contains("switchboard_gateway")).toList().toString());
        assertTrue(Pattern.compile("switchboard_gateway_call_duration_seconds_count\\{[^}]*backend=\"recording-it\"[^}]*tool=\"recording-it__echo\"[^}]*} [1-9]")
                .matcher(metrics).find());
        assertTrue(Pattern.compile("switchboard_gateway_errors_total\\{code=\"-32602\"[^}]*} [1-9]").matcher(metrics).find());
        assertFalse(metrics.contains("no-such-tool"), "names nobody serves never become tags");
        assertTrue(metrics.contains("switchboard_backend_breaker_state{backend=\"recording-it\""));

        Path log = Path.of(System.getProperty("it.server.log"));
        Instant deadline = Instant.now().plusSeconds(10);
        JsonObject line = null;
        while (line == null && Instant.now().isBefore(deadline)) {
            line = Files.readAllLines(log).stream().filter(l -> l.startsWith("{") && l.contains(trace) && l.contains("recording-it__echo"))
                    .map(GatewayResilienceIT::parse).findFirst().orElse(null);
            Thread.sleep(200);
        }
        assertTrue(line != null, "a JSON log line for the call");
        assertEquals(trace, line.getString("ext_traceId"), line.toString());
        assertEquals("recording-it__echo", line.getString("ext_tool"));
        assertEquals("recording-it", line.getString("ext_backend"));
        assertEquals("allow", line.getString("ext_decision"));
        assertEquals("default", line.getString("ext_tenant"));
        assertTrue(line.containsKey("ext_subject") && line.containsKey("ext_duration_long"), line.toString());
    }

    static double metric(String name, String backend) {
        String metrics = Api.get("/metrics", null).expect(200).text();
        var match = Pattern.compile("(?m)^" + name + "\\{[^}]*backend=\"" + Pattern.quote(backend) + "\"[^}]*} (\\S+)$").matcher(metrics);
        assertTrue(match.find(), name + " for " + backend + " in " + metrics.lines().filter(l -> l.contains(name)).toList());
        return Double.parseDouble(match.group(1));
    }

    static String session(String bearer) {
        HttpResponse<String> init = McpHttp.initialize(bearer, null);
        assertEquals(200, init.statusCode(), init::body);
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    static HttpResponse<String> call(String bearer, String session, String tool, jakarta.json.JsonObjectBuilder arguments, String... headers) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", tool).add("arguments", arguments)).build().toString();
        List<String> all = new ArrayList<>(List.of("Authorization", "Bearer " + bearer, "Accept", McpHttp.BOTH,
                "Content-Type", "application/json", "Mcp-Session-Id", session));
        all.addAll(List.of(headers));
        return McpHttp.send("POST", body, all.toArray(String[]::new));
    }

    static JsonObject result(HttpResponse<String> reply) {
        JsonObject rpc = McpHttp.response(reply);
        assertTrue(rpc.containsKey("result"), rpc.toString());
        return rpc.getJsonObject("result");
    }

    static JsonObject error(HttpResponse<String> reply) {
        JsonObject rpc = McpHttp.response(reply);
        assertTrue(rpc.containsKey("error"), rpc.toString());
        return rpc.getJsonObject("error");
    }

    /** The audit event of this tool in this trace (audit writing is asynchronous). */
    static JsonObject awaitTrace(String tool, String traceId) {
        Instant deadline = Instant.now().plusSeconds(15);
        String admin = Api.adminToken();
        while (Instant.now().isBefore(deadline)) {
            JsonArray data = Api.get("/api/audit?tool=" + tool + "&limit=100", admin).expect(200).json().getJsonArray("data");
            for (JsonValue event : data) {
                if (traceId.equals(event.asJsonObject().getString("traceId", ""))) {
                    return event.asJsonObject();
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("no audit event of " + tool + " in trace " + traceId);
    }

    static JsonObject parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
