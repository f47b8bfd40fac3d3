package dev.switchboard.it.gateway;

import dev.switchboard.it.support.PolicyTenant;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tenant's policy, rate limit and audit trail hold for an MCP 2026-07-28 client as for a session's, with the
 * gateway's codes of that era (-31020 policy denied, -31010 rate limited: -32020 is a header mismatch there), on a
 * real stdio MCP server that counts the calls that reach it.
 */
class GatewayStatelessPolicyIT {

    @RegisterExtension
    static final PolicyTenant governed = new PolicyTenant("stateless-policy", "spol");

    private static StatelessPeer.Answer call(StatelessPeer peer, String tool, String token) {
        return peer.request("tools/call", Json.createObjectBuilder().add("name", tool)
                .add("arguments", Json.createObjectBuilder().add("token", token)));
    }

    @Test
    void theAllowlistHidesAndDeniesWithTheEraOwnCodeAndTheDenialIsAudited() {
        governed.policy("{'tools':['" + governed.backend() + "__count']}");
        StatelessPeer peer = new StatelessPeer("/mcp", governed.userToken());
        String listed = peer.request("tools/list", Json.createObjectBuilder()).result().getJsonArray("tools").toString();
        assertTrue(listed.contains(governed.backend() + "__count") && !listed.contains(governed.backend() + "__hidden"), listed);

        String token = "deny26-" + UUID.randomUUID();
        StatelessPeer.Answer denied = call(peer, governed.backend() + "__hidden", token);
        assertEquals(200, denied.status());
        assertEquals(-31020, denied.error().getInt("code"), denied::toString);
        assertTrue(denied.error().getString("message").startsWith("policy_denied: tool '" + governed.backend() + "__hidden'"),
                denied::toString);
        assertEquals("call 1", call(peer, governed.backend() + "__count", token).result().getJsonArray("content")
                .getJsonObject(0).getString("text"));
        assertEquals(1, governed.calls(token), "the denied call never reached the backend");

        StatelessPeer passthrough = new StatelessPeer("/mcp/servers/" + governed.backend(), governed.userToken());
        assertEquals(-31020, call(passthrough, "hidden", token).error().getInt("code"));

        JsonObject event = governed.awaitAuditEvents(governed.backend() + "__hidden", "deny", 1).getJsonObject(0);
        assertEquals("tools/call", event.getString("action"));
        assertEquals(List.of(), peer.schemaProblems());
        assertEquals(List.of(), passthrough.schemaProblems());
    }

    @Test
    void theRateLimitAdmitsTheConfiguredCallsAndRefusesTheRestWithTheEraOwnCode() {
        governed.policy("{'rateLimit':{'requests':3,'per':'minute','burst':3}}");
        StatelessPeer peer = new StatelessPeer("/mcp", governed.userToken());
        String token = "rate26-" + UUID.randomUUID();
        List<Integer> codes = new ArrayList<>();
        JsonObject refusal = null;
        for (int i = 0; i < 5; i++) {
            StatelessPeer.Answer answer = call(peer, governed.backend() + "__count", token);
            if (answer.response().containsKey("error")) {
                refusal = answer.error();
                codes.add(refusal.getInt("code"));
            } else {
                assertEquals("complete", answer.result().getString("resultType"));
                codes.add(0);
            }
        }
        assertEquals(List.of(0, 0, 0, -31010, -31010), codes);
        assertEquals(3, governed.calls(token), "exactly the admitted calls reached the backend");
        assertTrue(refusal.getJsonObject("data").getJsonNumber("retryAfterMs").longValue() > 0, refusal::toString);
        assertFalse(refusal.getJsonObject("data").isEmpty());
        governed.policy("{}");
        assertEquals(JsonValue.ValueType.OBJECT, peer.request("tools/list", Json.createObjectBuilder()).result().getValueType());
        assertEquals(List.of(), peer.schemaProblems());
    }
}
