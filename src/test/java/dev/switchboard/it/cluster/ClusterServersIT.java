package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.RecordingBackend;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static dev.switchboard.it.cluster.ClusterMembers.A;
import static dev.switchboard.it.cluster.ClusterMembers.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Registered servers across members: a secret stored on A (encrypted with the keys every member has) is read on B and
 * reaches the backend from B; a server edited on A is used with its new address and headers by B, whose connection
 * made from the old settings is dropped; and a change the other member was never told about (written straight into
 * the database) is picked up from the server's settings version.
 */
class ClusterServersIT {

    @RegisterExtension
    static final ClusterMembers cluster = new ClusterMembers();

    /** The settings version is read with the list of servers, which a member keeps this long. */
    static final Duration SETTINGS_READ_AT_THE_LATEST = Duration.ofSeconds(2);

    static RecordingBackend first;
    static RecordingBackend second;
    static RecordingBackend third;
    static String admin;

    @BeforeAll
    static void start() throws Exception {
        first = RecordingBackend.start();
        second = RecordingBackend.start();
        third = RecordingBackend.start();
        admin = A.login("admin", Api.ADMIN_PASSWORD);
    }

    @AfterAll
    static void stop() {
        for (RecordingBackend backend : List.of(first, second, third)) {
            backend.kill();
        }
    }

    @Test
    void aServerEditedOnAIsUsedWithItsNewSettingsByB() throws Exception {
        String name = "edited" + UUID.randomUUID().toString().substring(0, 6);
        long id = A.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", name).add("type", "streamableHttp")
                .add("baseUrl", first.url()).add("scope", "shared")
                .add("headers", Json.createObjectBuilder().add("Authorization", "Bearer secret-one")).build())
                .expect(201).json().getJsonNumber("id").longValue();
        assertStoredEncrypted(id, "secret-one");
        String session = session(B);

        echo(B, session, name, "before");
        assertEquals("Bearer secret-one", lastCall(first).getJsonObject("headers").getString("authorization"),
                "a secret encrypted on A, read on B");

        A.put("/api/mcp-servers/" + id, admin, Json.createObjectBuilder().add("baseUrl", second.url())
                .add("headers", Json.createObjectBuilder().add("Authorization", "Bearer secret-two")).build()).expect(200);
        Instant edited = Instant.now();
        // the news reaches B a moment after A answered the edit (a call B began before that uses what it had read)
        awaitEchoAt(second, B, session, name);
        assertTrue(Duration.between(edited, Instant.now()).compareTo(SETTINGS_READ_AT_THE_LATEST.plusSeconds(3)) < 0,
                "B used the new address within the settings read's age (plus the calls' own time)");
        assertEquals("Bearer secret-two", lastCall(second).getJsonObject("headers").getString("authorization"));
        int firstBefore = first.lines().size();
        long secondCalls = calls(second);
        for (String message : List.of("again", "and again", "once more")) {
            echo(B, session, name, message);
        }
        assertEquals(firstBefore, first.lines().size(), "once B used the new settings, its connection to the old address is gone");
        assertEquals(secondCalls + 3, calls(second), "every later call went to the new address");
    }

    @Test
    void aChangeNoMessageToldBAboutIsPickedUpFromTheSettingsVersion() throws Exception {
        String name = "silent" + UUID.randomUUID().toString().substring(0, 6);
        long id = A.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", name).add("type", "streamableHttp")
                .add("baseUrl", first.url()).add("scope", "shared").build()).expect(201).json().getJsonNumber("id").longValue();
        String session = session(B);
        echo(B, session, name, "before");
        // as a member that missed the news would see it: only the database knows
        ClusterMembers.database("update mcp_servers set base_url = '" + third.url() + "', settings_version = settings_version + 1 where id = " + id);
        Instant changed = Instant.now();
        awaitEchoAt(third, B, session, name);
        assertTrue(Duration.between(changed, Instant.now()).compareTo(SETTINGS_READ_AT_THE_LATEST.plusSeconds(3)) < 0,
                "picked up within the settings read's age (plus the calls' own time)");
    }

    private static String session(ClusterMembers.Member member) {
        HttpResponse<String> init = McpHttp.sendTo(member.base(), "POST", McpHttp.initializeBody("2025-11-25"),
                "Authorization", "Bearer " + admin, "Accept", McpHttp.BOTH, "Content-Type", "application/json");
        assertEquals(200, init.statusCode(), init::body);
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static JsonObject echo(ClusterMembers.Member member, String session, String backend, String message) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 3).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", backend + "__echo")
                        .add("arguments", Json.createObjectBuilder().add("message", message))).build().toString();
        HttpResponse<String> reply = McpHttp.sendTo(member.base(), "POST", body, "Authorization", "Bearer " + admin,
                "Accept", McpHttp.BOTH, "Content-Type", "application/json", "Mcp-Session-Id", session,
                "MCP-Protocol-Version", "2025-11-25");
        JsonObject response = McpHttp.response(reply);
        assertEquals("echo: " + message, response.getJsonObject("result").getJsonArray("content").getJsonObject(0)
                .getString("text"), response::toString);
        return response;
    }

    /** Calls through {@code member} until a call reaches {@code backend}; bounded. */
    private static void awaitEchoAt(RecordingBackend backend, ClusterMembers.Member member, String session, String name)
            throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(15);
        while (Instant.now().isBefore(deadline)) {
            int before = backend.lines().size();
            echo(member, session, name, "after");
            if (backend.lines().size() > before) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(member + " never called the server's new address " + backend.url());
    }

    private static long calls(RecordingBackend backend) {
        return backend.lines().stream().filter(line -> "tools/call".equals(line.getString("rpc", null))).count();
    }

    private static JsonObject lastCall(RecordingBackend backend) {
        return backend.lines().stream().filter(line -> "tools/call".equals(line.getString("rpc", null)))
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no tools/call at " + backend.url()));
    }

    private static void assertStoredEncrypted(long id, String secret) throws Exception {
        String stored = ClusterMembers.database("select headers from mcp_servers where id = " + id);
        assertFalse(stored.contains(secret), stored);
        assertTrue(stored.contains("enc:v2:1:"), stored);
    }
}
