package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.SharedEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recorded gateway sessions (seed 001 §7): every client session and the backend sessions it uses are kept, and
 * admins list them with {@code GET /api/gateway/sessions}; an ended session is recorded as ended and stays unknown.
 */
class GatewaySessionsIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("rec");

    @Test
    void anOpenSessionIsListedWithItsClientAndBackendSessions() {
        String user = Api.newUser("default");
        String session = McpHttp.openSession(user, "recorded-client");
        List<JsonObject> listed = RecordedSessions.of(Api.subjectOf(user), "");
        assertEquals(1, listed.size(), listed::toString);
        JsonObject recorded = listed.get(0);
        assertEquals(session, recorded.getString("sessionId"));
        assertEquals("default", recorded.getString("tenant"));
        assertEquals("/mcp", recorded.getString("endpoint"));
        assertEquals("streamable_http", recorded.getString("transport"));
        assertEquals("2025-06-18", recorded.getString("protocolVersion"));
        assertEquals(Json.createObjectBuilder().add("name", "recorded-client").add("version", "9.9").build(),
                recorded.getJsonObject("clientInfo"));
        assertEquals("open", recorded.getString("state"));
        assertTrue(recorded.getBoolean("live"));
        assertFalse(recorded.containsKey("endedAt"));
        JsonObject ours = recorded.getJsonArray("backends").getValuesAs(JsonObject.class).stream()
                .filter(b -> b.getString("serverId").equals(String.valueOf(backend.id()))).findFirst()
                .orElseThrow(() -> new AssertionError("our backend is among " + recorded));
        assertEquals("connected", ours.getString("state"), ours::toString);
        assertTrue(ours.getString("backendSessionId").length() > 8, "a Streamable HTTP backend gave its own session id: " + ours);
    }

    @Test
    void anEndedSessionIsRecordedAsEndedAndAnswers404() {
        String user = Api.newUser("default");
        String session = McpHttp.openSession(user, "short-lived");
        assertEquals(200, McpHttp.endSession(user, session));
        assertEquals(404, McpHttp.ping(user, session));
        JsonObject recorded = RecordedSessions.of(Api.subjectOf(user), "&state=ended").get(0);
        assertEquals(session, recorded.getString("sessionId"));
        assertEquals("ended", recorded.getString("state"));
        assertEquals("deleted", recorded.getString("endReason"));
        assertFalse(recorded.getBoolean("live"));
        assertTrue(RecordedSessions.of(Api.subjectOf(user), "&state=open").isEmpty());
    }

    @Test
    void pagesFollowTheCursorNewestFirst() {
        String user = Api.newUser("default");
        String first = McpHttp.openSession(user, "one");
        String second = McpHttp.openSession(user, "two");
        String third = McpHttp.openSession(user, "three");
        String subject = Api.subjectOf(user);
        JsonObject page = Api.get("/api/gateway/sessions?subject=" + subject + "&limit=2", Api.adminToken()).expect(200).json();
        assertEquals(List.of(third, second), page.getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .map(s -> s.getString("sessionId")).toList());
        JsonObject next = Api.get("/api/gateway/sessions?subject=" + subject + "&limit=2&cursor=" + page.getString("nextCursor"),
                Api.adminToken()).expect(200).json();
        assertEquals(List.of(first), next.getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .map(s -> s.getString("sessionId")).toList());
        assertFalse(next.containsKey("nextCursor"));
    }

    @Test
    void badFiltersAndNonAdminsAreRefused() {
        String admin = Api.adminToken();
        Api.Reply state = Api.get("/api/gateway/sessions?state=sleeping", admin).expect(400);
        assertEquals("'state' must be one of [ended, open]", state.errorMessage());
        Api.Reply transport = Api.get("/api/gateway/sessions?transport=carrier-pigeon", admin).expect(400);
        assertEquals("'transport' must be one of [legacy_sse, streamable_http, websocket]", transport.errorMessage());
        assertEquals("'limit' must be between 1 and 500", Api.get("/api/gateway/sessions?limit=0", admin).expect(400).errorMessage());
        assertEquals("'cursor' must be a whole number", Api.get("/api/gateway/sessions?cursor=x", admin).expect(400).errorMessage());
        Api.get("/api/gateway/sessions", Api.newUser("default")).expect(403);
        String otherAdmin = Names.unique("boss");
        Api.post("/api/users", admin, Json.createObjectBuilder().add("username", otherAdmin).add("password", "boss-password")
                .add("role", "admin").add("tenant", "acme").build()).expect(201);
        assertEquals("tenant_forbidden", Api.get("/api/gateway/sessions?tenant=default", Api.login(otherAdmin, "boss-password"))
                .expect(403).errorCode());
    }
}
