package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member stopped the way a Kubernetes pod is: its {@code preStop} hook ({@code src/main/docker/drain.sh}, the same
 * file the image runs) drains it while a long {@code tools/call} runs and a GET stream is open, then {@code server
 * stop}. The lone server the build created, started here as a one-member cluster on a database of its own (the
 * environment gives it MariaDB, the keys and the drain settings), so that leaving the cluster is seen too.
 */
class ClusterDrainIT {

    private static final String SERVER = "switchboard-cluster-lone";
    private static final String PORT = System.getProperty("it.cluster.lone.port", "18785");
    private static final String MEMBER_PORT = System.getProperty("it.cluster.lone.member.port", "18786");
    private static final String DB = "switchboard_drain_" + PORT;
    private static final String DRAIN_TOKEN = "it-drain-token-" + PORT;
    private static final ClusterMembers.Member LONE = new ClusterMembers.Member("lone", "http://127.0.0.1:" + PORT);
    private static final String VERSION = "2025-11-25";

    @Test
    void aDrainedMemberRefusesNewCallsLetsTheRunningOneFinishEndsItsStreamsThenLeaves() throws Exception {
        Path log = startLone();
        try {
            Busy busy = busy();
            String admin = busy.admin();
            String session = busy.session();
            String backend = busy.backend();
            List<String> streamLines = busy.streamLines();
            CompletableFuture<HttpResponse<Void>> stream = busy.stream();
            CompletableFuture<HttpResponse<String>> longCall = busy.longCall();

            Api.Reply wrongToken = post("/api/drain", "X-Switchboard-Drain-Token", "not-it");
            assertEquals(403, wrongToken.status(), wrongToken.text());
            assertEquals("X-Switchboard-Drain-Token is missing or does not match SWITCHBOARD_DRAIN_TOKEN",
                    wrongToken.json().getJsonObject("error").getString("message"));

            Instant drainStarted = Instant.now();
            ProcessBuilder hook = new ProcessBuilder("bash", "src/main/docker/drain.sh").redirectErrorStream(true);
            hook.environment().putAll(Map.of("HTTP_PORT", PORT, "SWITCHBOARD_DRAIN_TOKEN", DRAIN_TOKEN));
            Process preStop = hook.start();
            preStop.getOutputStream().close();
            assertTrue(awaitReadinessDown(), "readiness went DOWN while the call still ran");
            assertFalse(longCall.isDone(), "the call was still running when readiness went DOWN");

            HttpResponse<String> refused = call(admin, session, backend, "refused", 0);
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals("2", refused.headers().firstValue("Retry-After").orElse(null));
            assertEquals("This Switchboard member is stopping and takes no new requests: retry in 2 s, another member "
                    + "will answer", json(refused.body()).getJsonObject("error").getString("message"));
            assertEquals("member_stopping", json(refused.body()).getJsonObject("error").getString("code"));

            HttpResponse<Void> ended = stream.get(20, TimeUnit.SECONDS);
            assertEquals(200, ended.statusCode());
            assertTrue(streamLines.contains("retry: 2000"), "the GET stream ended with a retry hint: " + streamLines);

            HttpResponse<String> finished = longCall.get(60, TimeUnit.SECONDS);
            assertEquals(200, finished.statusCode(), finished.body());
            assertEquals("call 1", ClusterTenant.text(McpHttp.response(finished)), "the running call finished with its result");

            assertTrue(preStop.waitFor(60, TimeUnit.SECONDS), "the preStop hook returned");
            String hookSaid = new String(preStop.getInputStream().readAllBytes());
            assertTrue(hookSaid.contains("\"drained\":true"), hookSaid);
            System.out.println("Drain took " + Duration.between(drainStarted, Instant.now()).toMillis() + " ms; hook: " + hookSaid.strip());

            String messages = Files.readString(log);
            int drainedAt = messages.indexOf("Drained: every admitted call finished");
            int leftAt = messages.indexOf("Cluster member leaving its cluster");
            assertTrue(drainedAt > 0 && leftAt > drainedAt, "the member left its cluster after the drain, not before:\n"
                    + ClusterMembers.logTail(SERVER));
        } finally {
            ClusterMembers.finished(ClusterMembers.server("stop", SERVER, Map.of()), "server stop " + SERVER);
        }
        assertTrue(Files.readString(log).contains("CWWKE0036I"), "the server stopped");
    }

    /**
     * No drain before: Liberty's quiesce closes the port at once (new connections are refused) and lets the request in
     * progress run; the application's stop hook then drains what is left (the stream ends, the call finishes) before
     * the member leaves its cluster.
     */
    @Test
    void aPlainServerStopStillLetsTheRunningCallFinishBeforeTheMemberLeaves() throws Exception {
        Path log = startLone();
        Process stop = null;
        try {
            Busy busy = busy();
            List<String> streamLines = busy.streamLines();
            CompletableFuture<HttpResponse<Void>> stream = busy.stream();
            CompletableFuture<HttpResponse<String>> longCall = busy.longCall();

            stop = new ProcessBuilder(ClusterMembers.WLP.resolve("bin/server").toString(), "stop", SERVER, "--timeout=3m")
                    .redirectErrorStream(true).start();
            assertTrue(awaitRefusedConnection(), "Liberty stopped listening at once");
            assertFalse(longCall.isDone(), "the call was still running when the port closed");

            HttpResponse<String> finished = longCall.get(60, TimeUnit.SECONDS);
            assertEquals(200, finished.statusCode(), finished.body());
            assertEquals("call 1", ClusterTenant.text(McpHttp.response(finished)), "the running call finished with its result");
            // after Liberty's quiesce the stream may be cut rather than ended: either way it ends
            String streamEnd = stream.handle((reply, failure) -> failure == null ? "ended" : "cut: " + failure)
                    .get(60, TimeUnit.SECONDS);
            assertTrue(stop.waitFor(3, TimeUnit.MINUTES), "server stop returned");
            String messages = Files.readString(log);
            int drainAt = messages.indexOf("Draining (the application is stopping)");
            int drainedAt = messages.indexOf("Drained: every admitted call finished");
            int leftAt = messages.indexOf("Cluster member leaving its cluster");
            assertTrue(drainAt > 0 && drainedAt > drainAt && leftAt > drainedAt, "drain, then leave:\n" + ClusterMembers.logTail(SERVER));
            System.out.println("Plain stop: the stream " + streamEnd + " after " + streamLines);
        } finally {
            if (stop == null || !stop.waitFor(3, TimeUnit.MINUTES)) {
                ClusterMembers.server("stop", SERVER, Map.of()).waitFor(120, TimeUnit.SECONDS);
            }
        }
        assertTrue(Files.readString(log).contains("CWWKE0036I"), "the server stopped");
    }

    /** The member at work: a session with its GET stream open, and a call of 8 s running in it. */
    private record Busy(String admin, String backend, String session, List<String> streamLines,
                        CompletableFuture<HttpResponse<Void>> stream, CompletableFuture<HttpResponse<String>> longCall) {
    }

    private static Busy busy() throws Exception {
        ClusterMembers.awaitClusterOf(LONE, 1);
        Api.Reply started = LONE.get("/health/started", null);
        assertEquals(200, started.status(), "the startup probe of docs/kubernetes/switchboard.yaml: " + started.text());
        assertEquals(200, LONE.get("/health/live", null).status(), "its liveness probe");
        String admin = LONE.login("admin", Api.ADMIN_PASSWORD);
        String backend = registerCounter(admin);
        String session = openSession(admin);
        List<String> streamLines = new CopyOnWriteArrayList<>();
        CompletableFuture<HttpResponse<Void>> stream = openGetStream(admin, session, streamLines);
        CompletableFuture<HttpResponse<String>> longCall = CompletableFuture.supplyAsync(
                () -> call(admin, session, backend, "long", 8000));
        awaitInFlight(1, longCall);
        return new Busy(admin, backend, session, streamLines, stream, longCall);
    }

    /** Starts the lone server as a one-member cluster on a fresh database of its own; answers its log. */
    private static Path startLone() throws Exception {
        Path log = ClusterMembers.WLP.resolve("usr/servers/" + SERVER + "/logs/messages.log");
        Files.deleteIfExists(log);
        freshDatabase();
        ClusterMembers.finished(ClusterMembers.server("start", SERVER, Map.of(
                "DB_URL", "jdbc:mysql://127.0.0.1:3306/" + DB, "DB_USER", "switchboard_drain", "DB_PASSWORD", "drain-it",
                "SWITCHBOARD_SECRET_KEYS", "v1=cFZFGEvnUs0/p58diuy3X20xu7d6eL++CXuTZWirTvs=",
                "SWITCHBOARD_AUDIT_SECRETS", "v1=ajg5BvwDQ0+tUeAYPDHFNCNhD6npAvPRL0lf8vEA3Ms=",
                "SWITCHBOARD_CLUSTER_MEMBERS", "127.0.0.1:" + MEMBER_PORT,
                "SWITCHBOARD_DRAIN_TOKEN", DRAIN_TOKEN, "SWITCHBOARD_DRAIN_TIMEOUT", "PT40S")), "server start " + SERVER);
        return log;
    }

    /** True once a new connection to the member is refused (within 10 s). */
    private static boolean awaitRefusedConnection() throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(10);
        while (Instant.now().isBefore(deadline)) {
            try {
                LONE.get("/health/ready", null);
            } catch (AssertionError refused) {
                if (String.valueOf(refused.getMessage()).contains("ConnectException")) {
                    return true;
                }
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** The member's database, afresh, with an account of its own (the lone server's environment names it). */
    private static void freshDatabase() throws Exception {
        try (Connection c = DriverManager.getConnection(System.getProperty("it.mariadb.url", "jdbc:mysql://127.0.0.1:3306/"), "root", "")) {
            c.createStatement().execute("DROP DATABASE IF EXISTS " + DB);
            c.createStatement().execute("CREATE DATABASE " + DB + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
            for (String host : List.of("127.0.0.1", "localhost")) {
                c.createStatement().execute("CREATE USER IF NOT EXISTS 'switchboard_drain'@'" + host + "' IDENTIFIED BY 'drain-it'");
                c.createStatement().execute("GRANT ALL ON " + DB + ".* TO 'switchboard_drain'@'" + host + "'");
            }
        }
    }

    /** policy-server.mjs as a shared stdio server of the default tenant; answers its name. */
    private static String registerCounter(String admin) throws Exception {
        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
        Path script = nodeDir.resolve("policy-server.mjs");
        Files.copy(Paths.get("src/test/node/policy-server.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        Path calls = Files.createTempFile("drain", ".calls");
        LONE.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", "drained").add("command", "node")
                .add("scope", "shared").add("args", Json.createArrayBuilder().add(script.toString()).add(calls.toString()))
                .build()).expect(201);
        return "drained";
    }

    private static String openSession(String token) {
        HttpResponse<String> init = McpHttp.sendTo(LONE.base(), "POST", McpHttp.initializeBody(VERSION),
                "Authorization", "Bearer " + token, "Accept", McpHttp.BOTH, "Content-Type", "application/json");
        assertEquals(200, init.statusCode(), init::body);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        McpHttp.sendTo(LONE.base(), "POST", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "Authorization", "Bearer " + token, "Accept", McpHttp.BOTH, "Content-Type", "application/json",
                "Mcp-Session-Id", session, "MCP-Protocol-Version", VERSION);
        return session;
    }

    /** The session's GET stream; every line it carries is added to {@code lines}; completes when the server ends it. */
    private static CompletableFuture<HttpResponse<Void>> openGetStream(String token, String session, List<String> lines)
            throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(LONE.base() + "/mcp")).GET()
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", VERSION).build();
        CompletableFuture<HttpResponse<Void>> stream = McpHttp.HTTP.sendAsync(request,
                HttpResponse.BodyHandlers.fromLineSubscriber(new Flow.Subscriber<String>() {
                    @Override
                    public void onSubscribe(Flow.Subscription subscription) {
                        subscription.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(String line) {
                        lines.add(line);
                    }

                    @Override
                    public void onError(Throwable throwable) {
                        lines.add("error: " + throwable);
                    }

                    @Override
                    public void onComplete() {
                        lines.add("(end)");
                    }
                }));
        Instant deadline = Instant.now().plusSeconds(20);
        while (lines.isEmpty() && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }
        assertFalse(lines.isEmpty(), "the GET stream opened");
        return stream;
    }

    private static HttpResponse<String> call(String token, String session, String backend, String callToken, int delayMillis) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 7).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", backend + "__count").add("arguments",
                        Json.createObjectBuilder().add("token", callToken).add("delay_ms", delayMillis))).build().toString();
        return McpHttp.sendTo(LONE.base(), "POST", body, "Authorization", "Bearer " + token, "Accept", McpHttp.BOTH,
                "Content-Type", "application/json", "Mcp-Session-Id", session, "MCP-Protocol-Version", VERSION);
    }

    /** Waits until the member's readiness counts {@code calls} admitted calls (the drain check's {@code inFlight}). */
    private static void awaitInFlight(int calls, CompletableFuture<HttpResponse<String>> call) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        String last = "";
        while (Instant.now().isBefore(deadline)) {
            last = LONE.get("/health/ready", null).text();
            if (drainCheck(last).getJsonObject("data").getInt("inFlight") == calls) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never " + calls + " call(s) in flight: " + last
                + (call.isDone() ? "; the call ended: " + call.join().statusCode() + " " + call.join().body() : ""));
    }

    private static boolean awaitReadinessDown() throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(5);
        while (Instant.now().isBefore(deadline)) {
            Api.Reply ready = LONE.get("/health/ready", null);
            if (ready.status() == 503 && drainCheck(ready.text()).getString("status").equals("DOWN")) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private static JsonObject drainCheck(String readiness) {
        return json(readiness).getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                .filter(check -> check.getString("name").equals("drain")).findFirst()
                .orElseThrow(() -> new AssertionError("no drain check in " + readiness));
    }

    private static Api.Reply post(String path, String header, String value) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(LONE.base() + path)).header(header, value)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            HttpResponse<String> response = McpHttp.HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Api.Reply(response.statusCode(), response.headers(), response.body());
        } catch (Exception e) {
            throw new AssertionError("POST " + path + " failed: " + e, e);
        }
    }

    private static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }
}
