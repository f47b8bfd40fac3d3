package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.PolicyTenant;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.StringReader;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chat loop's MCP tool calls under the caller's tenant policy and in the audit trail, like the gateway's: against
 * the same recording stdio server as {@code GatewayPolicyIT} ({@code policy-server.mjs}, which writes every call it
 * receives to a file), so "the backend was not called" is counted.
 */
class ChatGovernanceIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final PolicyTenant governed = new PolicyTenant("chatgov", "cg", "count");
    static long assistant;

    @BeforeAll
    static void createAssistant() {
        assistant = Chat.assistant(governed.userToken(), governed.serverId());
    }

    static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    static String llmName(String tool) {
        return "mcp__" + governed.backend() + "__" + tool;
    }

    static ToolCall call(String id, String tool, String token) {
        return new ToolCall(id, llmName(tool), "{\"token\":\"" + token + "\"}");
    }

    static Api.Reply chat(String token, Script script) {
        return Api.post("/api/chat/completions", token, Json.createObjectBuilder().add("assistant_id", assistant)
                .add("messages", Json.createArrayBuilder().add(Chat.user("go " + script.key()))).build()).expect(200);
    }

    /** What the LLM was told as the result of call {@code id}, read from its second request. */
    static String toldTheLlm(Script script, String id) {
        return Chat.toolMessage(script.requests().get(1).getJsonArray("messages"), id);
    }

    @Test
    void aChatToolCallIsAuditedLikeAGatewayCallAndTheChainHolds() {
        governed.policy("{}");
        JsonObject key = Api.post("/api/api-keys", governed.userToken(), Json.createObjectBuilder().add("name", "chat-governance-it").build())
                .expect(201).json();
        String token = "audit-" + UUID.randomUUID();
        Script script = provider.script(Reply.tools(call("c1", "count", token)), Reply.text("counted"));
        Api.Reply answer = chat(key.getString("key"), script);
        assertEquals("counted", answer.json().getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));
        assertEquals("call 1", toldTheLlm(script, "c1"));

        JsonObject event = governed.awaitAuditEvents(governed.backend() + "__count", "allow", 1).getJsonObject(0);
        assertEquals("tools/call", event.getString("action"));
        assertEquals(governed.id(), event.getString("tenantId"));
        assertEquals(Api.subjectOf(governed.userToken()), event.getString("subject"));
        assertTrue(event.getString("clientId").startsWith("api_key:"), "the API key is the client: " + event);
        assertEquals(governed.backend(), event.getString("backendId"));
        assertEquals("ok", event.getString("outcome"));
        assertEquals(answer.headers().firstValue("X-Trace-Id").orElseThrow(), event.getString("traceId"), "the request's trace");
        assertEquals(64, event.getString("inputHash").length());
        assertTrue(event.containsKey("durationMs"), event::toString);

        String admin = Api.adminToken();
        JsonArray found = Api.post("/api/audit/search-by-input", admin, Json.createObjectBuilder()
                .add("input", Json.createObjectBuilder().add("token", token)).add("tenant", governed.id()).build()).expect(200).json().getJsonArray("data");
        assertEquals(event.getJsonNumber("id"), found.getJsonObject(0).getJsonNumber("id"), "found by its arguments");
        JsonObject chain = Api.get("/api/audit/verify?tenant=" + governed.id(), admin).expect(200).json();
        assertTrue(chain.getBoolean("valid"), chain::toString);
        assertTrue(chain.getInt("checked") >= 1, chain::toString);
    }

    @Test
    void aToolOutsideTheAllowlistIsRefusedInChatWithoutAskingOrCallingTheBackend() {
        governed.policy("{'tools':['" + governed.backend() + "__count']}");
        String token = "deny-" + UUID.randomUUID();
        // 'hidden' is not auto-approved: had the allowlist not refused it, this blocking request would wait for a confirm
        Script script = provider.script(Reply.tools(call("d1", "hidden", token), call("d2", "count", token)), Reply.text("only counted"));
        JsonObject answer = chat(governed.userToken(), script).json();
        assertEquals("only counted", answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));

        String expected = "policy_denied: tool '" + governed.backend() + "__hidden' is not in the allowlist of tenant '" + governed.id() + "'";
        JsonObject told = json(toldTheLlm(script, "d1")).getJsonObject("error");
        assertEquals("policy_denied", told.getString("code"));
        assertEquals(expected, told.getString("message"));
        assertEquals("call 1", toldTheLlm(script, "d2"));
        assertEquals(1, governed.calls(token), "only the allowed call reached the backend");
        assertEquals(List.of(llmName("count")), answer.getJsonObject("tool_execution").getJsonArray("tools_called")
                .getValuesAs(jakarta.json.JsonString.class).stream().map(jakarta.json.JsonString::getString).toList());

        JsonObject stored = Api.get("/api/messages/" + answer.getJsonNumber("message_id"), governed.userToken()).expect(200).json()
                .getJsonArray("toolCalls").getJsonObject(0);
        assertEquals("cancelled", stored.getString("status"), "the client sees the call did not run, and why");
        assertEquals(expected, stored.getJsonObject("response").getJsonObject("error").getString("message"));

        JsonObject event = governed.awaitAuditEvents(governed.backend() + "__hidden", "deny", 1).getJsonObject(0);
        assertFalse(event.containsKey("outcome") && !event.isNull("outcome"), event::toString);
        governed.policy("{}");
    }

    @Test
    void chatCallsOverTheRateLimitAreRefusedWithARetryAfterAndNeverReachTheBackend() {
        governed.policy("{'rateLimit':{'requests':2,'per':'minute','burst':2}}");
        String token = "rate-" + UUID.randomUUID();
        Script script = provider.script(Reply.tools(call("r1", "count", token), call("r2", "count", token),
                call("r3", "count", token), call("r4", "count", token)), Reply.text("two of four"));
        chat(governed.userToken(), script);

        assertEquals(2, governed.calls(token), "exactly the admitted calls reached the backend");
        List<JsonObject> refused = List.of("r1", "r2", "r3", "r4").stream().map(id -> toldTheLlm(script, id))
                .filter(text -> text.startsWith("{")).map(text -> json(text).getJsonObject("error")).toList();
        assertEquals(2, refused.size(), "two refused");
        for (JsonObject refusal : refused) {
            assertEquals("rate_limited", refusal.getString("code"));
            assertTrue(refusal.getString("message").startsWith("rate_limited: tenant '" + governed.id()
                    + "' is over its limit of 2 per minute (burst 2); retry after "), refusal.getString("message"));
            long wait = refusal.getJsonNumber("retry_after_ms").longValue();
            assertTrue(wait > 0 && wait <= 30_000, "half a minute at most: " + wait);
        }
        assertEquals(2, governed.awaitAuditEvents(governed.backend() + "__count", "rate_limited", 2).size());
        governed.policy("{}");
    }

    @Test
    void callsRefusedAtTheApprovalStepAreAuditedWithTheirDecision() {
        governed.policy("{}");
        String token = "approval-" + UUID.randomUUID();
        Script rejected = provider.script(Reply.tools(call("a1", "hidden", token)), Reply.text("you said no"));
        String session = Names.unique("gov-reject");
        CompletableFuture<Api.Reply> answer = CompletableFuture.supplyAsync(() -> Api.post("/api/chat/completions", governed.userToken(),
                Json.createObjectBuilder().add("assistant_id", assistant).add("session_id", session)
                        .add("messages", Json.createArrayBuilder().add(Chat.user("go " + rejected.key()))).build()));
        long message = Chat.pendingMessage(governed.userToken(), session);
        Api.post("/api/messages/" + message + "/tool-confirm", governed.userToken(), Json.createObjectBuilder().add("toolCallId", "a1")
                .add("approved", false).build()).expect(200);
        answer.join().expect(200);

        Script unanswered = provider.script(Reply.tools(call("a2", "hidden", token)), Reply.text("nobody answered"));
        chat(governed.userToken(), unanswered);  // the IT server's approval timeout is 4 s

        assertEquals(0, governed.calls(token), "neither call ran");
        JsonObject refusal = governed.awaitAuditEvents(governed.backend() + "__hidden", "rejected", 1).getJsonObject(0);
        assertFalse(refusal.containsKey("outcome") && !refusal.isNull("outcome"), refusal::toString);
        JsonObject timeout = governed.awaitAuditEvents(governed.backend() + "__hidden", "approval_timeout", 1).getJsonObject(0);
        assertTrue(timeout.getJsonNumber("durationMs").longValue() >= 3_000, "waited for the timeout: " + timeout);
    }
}
