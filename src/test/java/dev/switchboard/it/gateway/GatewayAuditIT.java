package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ServerDatabase;
import dev.switchboard.it.support.SharedEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Calls through /mcp land in the audit trail: attributed, hashed (never stored), chained, with no secret anywhere. */
class GatewayAuditIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("audited");
    @RegisterExtension
    static final NewUser user = new NewUser();

    @Test
    void aToolCallIsAuditedWithoutItsSecrets() throws Exception {
        String session = McpHttp.newSession(user.token());
        String planted = "sk-planted" + UUID.randomUUID().toString().replace("-", "");
        JsonObject arguments = Json.createObjectBuilder().add("message", "audit me " + planted).build();
        String call = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 7).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", backend.name() + "__echo").add("arguments", arguments)).build().toString();
        JsonObject answer = McpHttp.response(McpHttp.inSession(user.token(), session, call));
        assertTrue(answer.containsKey("result"), answer.toString());

        String admin = Api.adminToken();
        JsonObject event = awaitEvent(admin, backend.name() + "__echo");
        assertEquals("tools/call", event.getString("action"));
        assertEquals(backend.name(), event.getString("backendId"));
        assertEquals("allow", event.getString("decision"));
        assertEquals("ok", event.getString("outcome"));
        assertFalse(event.containsKey("clientId"), "a local access token names no client (the session is not one)");
        assertEquals(64, event.getString("inputHash").length());
        assertEquals(32, event.getString("traceId").length());

        JsonObject found = Api.post("/api/audit/search-by-input", admin, Json.createObjectBuilder().add("input", arguments).build()).expect(200).json();
        assertEquals(event.getJsonNumber("id"), found.getJsonArray("data").getJsonObject(0).getJsonNumber("id"), "found by its input");
        assertTrue(Api.get("/api/audit/verify", admin).expect(200).json().getBoolean("valid"));

        String table = ServerDatabase.queryString("select group_concat(concat_ws('|', subject, tool, backend_id, outcome, "
                + "input_hash, trace_id)) from audit_event");
        assertFalse(table.contains(planted), "the audit table never holds the input");
        String log = Files.readString(Path.of(System.getProperty("it.server.log")));
        assertFalse(log.contains(planted), "the server log never holds the input");
    }

    @Test
    void anUnknownToolIsAuditedWithItsError() {
        String session = McpHttp.newSession(user.token());
        String call = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"" + backend.name()
                + "__no-such-tool\",\"arguments\":{}}}";
        JsonObject answer = McpHttp.response(McpHttp.inSession(user.token(), session, call));
        assertEquals(-32602, answer.getJsonObject("error").getInt("code"));
        JsonObject event = awaitEvent(Api.adminToken(), backend.name() + "__no-such-tool");
        assertEquals("error -32602", event.getString("outcome"));
    }

    /** Audit writing is asynchronous: wait (bounded) for the event to land. */
    static JsonObject awaitEvent(String admin, String tool) {
        Instant deadline = Instant.now().plusSeconds(15);
        while (Instant.now().isBefore(deadline)) {
            var data = Api.get("/api/audit?tool=" + tool, admin).expect(200).json().getJsonArray("data");
            if (!data.isEmpty()) {
                return data.get(0).asJsonObject();
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("no audit event for " + tool + " within 15 s");
    }
}
