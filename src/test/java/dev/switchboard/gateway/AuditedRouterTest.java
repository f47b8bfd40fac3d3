package dev.switchboard.gateway;

import dev.switchboard.audit.AuditRecord;
import dev.switchboard.audit.AuditTrail;
import dev.switchboard.audit.AuditUnavailableException;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The audit layer releases an answer only once its event is recorded, and runs no call it could not audit. */
class AuditedRouterTest {

    private static final JsonRpcMessage CALL = JsonRpcMessage.request(Json.createValue(7), "tools/call",
            Json.createObjectBuilder().add("name", "everything__echo").add("arguments", Json.createObjectBuilder().add("message", "hi")).build());

    private final PolicyRouterTest.Recording backend = new PolicyRouterTest.Recording()
            .answer(request -> Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", request.id())
                    .add("result", Json.createObjectBuilder().add("content", Json.createArrayBuilder())).build());

    @Test
    void theAnswerGoesOutOnceItsEventIsRecorded() {
        List<AuditRecord> recorded = new ArrayList<>();
        JsonObject answer = new AuditedRouter(backend, recorded::add, PolicyRouterTest.CALLER).handle(CALL, null, null).json();
        assertTrue(answer.containsKey("result"), answer::toString);
        assertEquals(1, recorded.size());
        assertEquals("everything__echo", recorded.get(0).tool());
    }

    @Test
    void anAnswerWhoseEventWasNotRecordedIsWithheld() {
        AuditTrail failing = record -> {
            throw new AuditUnavailableException("the audit event was not written within PT5S");
        };
        JsonObject answer = new AuditedRouter(backend, failing, PolicyRouterTest.CALLER).handle(CALL, null, null).json();
        assertFalse(answer.containsKey("result"), answer::toString);
        assertEquals(-32050, answer.getJsonObject("error").getInt("code"));
        assertTrue(answer.getJsonObject("error").getString("message").startsWith("audit_unavailable: "), answer::toString);
        assertEquals(7, answer.getInt("id"));
        assertEquals(1, backend.seen.size(), "the call ran; only its answer is withheld");
    }

    @Test
    void aCallThatCouldNotBeAuditedDoesNotRun() {
        AuditTrail down = new AuditTrail() {
            @Override
            public void record(AuditRecord record) {
            }

            @Override
            public void checkWriting() {
                throw new AuditUnavailableException("the audit database is not answering");
            }
        };
        JsonObject answer = new AuditedRouter(backend, down, PolicyRouterTest.CALLER).handle(CALL, null, null).json();
        assertEquals(-32050, answer.getJsonObject("error").getInt("code"));
        assertTrue(backend.seen.isEmpty(), "the backend was not called");
    }
}
