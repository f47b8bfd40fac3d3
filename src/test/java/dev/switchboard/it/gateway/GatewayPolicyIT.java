package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.PolicyTenant;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tenant's policy on the gateway, against a real stdio MCP server ({@code policy-server.mjs}, official SDK) that
 * writes every call it receives to a state file, so "the backend was not called" is counted, not assumed.
 */
class GatewayPolicyIT {

    @RegisterExtension
    static final PolicyTenant governed = new PolicyTenant("policy", "pol");
    /** The caller of the requests below: the tenant's user, or for a while an API key of theirs. */
    static String userToken;

    @BeforeAll
    static void caller() {
        userToken = governed.userToken();
    }

    static HttpResponse<String> post(String path, String session, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Api.BASE + path)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Authorization", "Bearer " + userToken)
                .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json");
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            return McpHttp.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("POST " + path + " failed: " + e, e);
        }
    }

    static String session(String path) {
        HttpResponse<String> init = post(path, null, McpHttp.initializeBody("2025-11-25"));
        assertEquals(200, init.statusCode(), init::body);
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    static JsonObject rpc(String path, String session, String method, JsonObject params, String... headers) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", method)
                .add("params", params).build().toString();
        return McpHttp.response(post(path, session, body, headers));
    }

    static JsonObject call(String path, String session, String tool, String token, String... headers) {
        return rpc(path, session, "tools/call", Json.createObjectBuilder().add("name", tool)
                .add("arguments", Json.createObjectBuilder().add("token", token)).build(), headers);
    }

    static List<String> toolNames(JsonObject listAnswer) {
        List<String> names = new ArrayList<>();
        listAnswer.getJsonObject("result").getJsonArray("tools").forEach(t -> names.add(t.asJsonObject().getString("name")));
        return names;
    }

    static JsonObject error(JsonObject answer) {
        assertTrue(answer.containsKey("error"), answer::toString);
        return answer.getJsonObject("error");
    }

    static String text(JsonObject answer) {
        assertTrue(answer.containsKey("result"), answer::toString);
        return answer.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text");
    }

    @Test
    void theAllowlistHidesAndDeniesOnTheAggregatedEndpointAndThePassthrough() {
        governed.policy("{'tools':['" + governed.backend() + "__count','" + governed.backend() + "__fail_once']}");
        String session = session("/mcp");
        List<String> listed = toolNames(rpc("/mcp", session, "tools/list", JsonValue.EMPTY_JSON_OBJECT));
        assertTrue(listed.contains(governed.backend() + "__count"), listed::toString);
        assertFalse(listed.contains(governed.backend() + "__hidden"), listed::toString);

        String token = "deny-" + UUID.randomUUID();
        JsonObject denied = error(call("/mcp", session, governed.backend() + "__hidden", token));
        assertEquals(-32020, denied.getInt("code"));
        assertEquals("policy_denied: tool '" + governed.backend() + "__hidden' is not in the allowlist of tenant '" + governed.id() + "'",
                denied.getString("message"));
        assertEquals("call 1", text(call("/mcp", session, governed.backend() + "__count", token)));

        String path = "/mcp/servers/" + governed.backend();
        String direct = session(path);
        List<String> passthrough = toolNames(rpc(path, direct, "tools/list", JsonValue.EMPTY_JSON_OBJECT));
        assertEquals(List.of("count", "fail_once"), passthrough);
        assertEquals(-32020, error(call(path, direct, "hidden", token)).getInt("code"));
        assertEquals(0, governed.calls("hidden-never"), "sanity");
        assertEquals(1, governed.calls(token), "the denied calls never reached the backend");

        JsonObject event = awaitEvent(governed.backend() + "__hidden", "deny");
        assertEquals("tools/call", event.getString("action"));
        assertEquals(governed.backend(), event.getString("backendId"));
        assertFalse(event.containsKey("outcome") && !event.isNull("outcome"), event::toString);
        assertTrue(metrics().contains("switchboard_policy_denials_total{") && metrics().contains("tenant=\"" + governed.id() + "\""));
    }

    @Test
    void theAllowlistHoldsOverWebSocket() {
        governed.policy("{'tools':['" + governed.backend() + "__count']}");
                JsonArray steps = Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "list"))
                .add(Json.createObjectBuilder().add("op", "call").add("call", governed.backend() + "__hidden")
                        .add("arguments", Json.createObjectBuilder().add("token", "ws-hidden")))
                .build();
        JsonArray outcome = GatewayClient.runScript("gateway-socket.mjs", GatewayClient.SOCKET_URL, userToken, steps).getJsonArray("steps");
        List<String> tools = outcome.getJsonObject(0).getJsonArray("tools").getValuesAs(jakarta.json.JsonString.class)
                .stream().map(jakarta.json.JsonString::getString).toList();
        assertEquals(List.of(governed.backend() + "__count"), tools);
        assertEquals(-32020, outcome.getJsonObject(1).getJsonObject("error").getInt("code"), outcome::toString);
        assertEquals(0, governed.calls("ws-hidden"));
    }

    @Test
    void promptsAndResourcesOfABackendTheTenantMayNotUseAreHiddenAndDenied() {
        governed.policy("{'resourceBackends':[]}");
        String session = session("/mcp");
        assertEquals(0, rpc("/mcp", session, "prompts/list", JsonValue.EMPTY_JSON_OBJECT).getJsonObject("result")
                .getJsonArray("prompts").size());
        JsonObject prompt = error(rpc("/mcp", session, "prompts/get", Json.createObjectBuilder().add("name", governed.backend() + "__greeting").build()));
        assertEquals(-32020, prompt.getInt("code"));
        assertEquals("policy_denied: tenant '" + governed.id() + "' may not use the prompts of backend '" + governed.backend() + "'", prompt.getString("message"));
        assertEquals(-32020, error(rpc("/mcp", session, "resources/read", Json.createObjectBuilder()
                .add("uri", "switchboard://" + governed.backend() + "/note://one").build())).getInt("code"));

        governed.policy("{'resourceBackends':['" + governed.backend() + "']}");
        assertEquals("hello", rpc("/mcp", session, "prompts/get", Json.createObjectBuilder().add("name", governed.backend() + "__greeting").build())
                .getJsonObject("result").getJsonArray("messages").getJsonObject(0).getJsonObject("content").getString("text"));
    }

    @Test
    void theRateLimitAdmitsExactlyTheConfiguredCallsAndRefusedOnesNeverReachTheBackend() {
        governed.policy("{'rateLimit':{'requests':3,'per':'minute','burst':3}}");
        String session = session("/mcp");
        String token = "rate-" + UUID.randomUUID();
        List<Integer> codes = new ArrayList<>();
        JsonObject lastRefusal = null;
        for (int i = 0; i < 5; i++) {
            JsonObject answer = call("/mcp", session, governed.backend() + "__count", token);
            if (answer.containsKey("error")) {
                lastRefusal = answer.getJsonObject("error");
                codes.add(lastRefusal.getInt("code"));
            } else {
                codes.add(0);
            }
        }
        assertEquals(List.of(0, 0, 0, -32010, -32010), codes);
        assertEquals(3, governed.calls(token), "exactly the admitted calls reached the backend");
        long retryAfter = lastRefusal.getJsonObject("data").getJsonNumber("retryAfterMs").longValue();
        assertTrue(retryAfter > 0 && retryAfter <= 20_000, "a third of a minute at most: " + retryAfter);
        assertTrue(lastRefusal.getString("message").startsWith("rate_limited: tenant '" + governed.id()
                + "' is over its limit of 3 per minute (burst 3); retry after "), lastRefusal.getString("message"));

        JsonArray limited = governed.awaitAuditEvents(governed.backend() + "__count", "rate_limited", 2);
        assertEquals(2, limited.size());
        assertTrue(metrics().contains("switchboard_rate_limited_total{"), "rate-limit refusals are counted");
        governed.policy("{}");
    }

    @Test
    void aFailedCallIsRetriedOnlyWithAKeyARetryAllowedToolAndLowRisk() {
        String tool = governed.backend() + "__fail_once";
        String session = session("/mcp");
        governed.policy("{'toolRules':[{'tool':'" + tool + "','retryAllowed':true,'risk':'low'}]}");

        String noKey = "nokey-" + UUID.randomUUID();
        assertEquals(-32030, error(call("/mcp", session, tool, noKey)).getInt("code"));
        assertEquals(1, governed.calls(noKey), "without an idempotency key: never retried");

        String keyed = "keyed-" + UUID.randomUUID();
        assertEquals("attempt 2", text(call("/mcp", session, tool, keyed, "x-idempotency-key", keyed)));
        assertEquals(2, governed.calls(keyed), "retried once after the transport failure");
        assertEquals("attempt 2", text(call("/mcp", session, tool, keyed, "x-idempotency-key", keyed)),
                "the same key answers the first result again");
        assertEquals(2, governed.calls(keyed), "without calling the backend again");

        governed.policy("{'toolRules':[{'tool':'" + tool + "','retryAllowed':true,'risk':'medium'}]}");
        String risky = "risky-" + UUID.randomUUID();
        assertEquals(-32030, error(call("/mcp", session, tool, risky, "x-idempotency-key", risky)).getInt("code"));
        assertEquals(1, governed.calls(risky), "not low risk: not retried");

        governed.policy("{'toolRules':[{'tool':'" + tool + "','retryAllowed':false,'risk':'low'}]}");
        String notAllowed = "notallowed-" + UUID.randomUUID();
        assertEquals(-32030, error(call("/mcp", session, tool, notAllowed, "x-idempotency-key", notAllowed)).getInt("code"));
        assertEquals(1, governed.calls(notAllowed), "not retry_allowed: not retried");
        governed.policy("{}");
    }

    @Test
    void anApiKeyIsTheClientOfTheCallsMadeWithIt() {
        governed.policy("{}");
        JsonObject key = Api.post("/api/api-keys", userToken, Json.createObjectBuilder().add("name", "policy-it").build())
                .expect(201).json();
        String saved = userToken;
        userToken = key.getString("key");
        try {
            String session = session("/mcp");
            rpc("/mcp", session, "prompts/get", Json.createObjectBuilder().add("name", governed.backend() + "__greeting").build());
        } finally {
            userToken = saved;
        }
        Instant deadline = Instant.now().plusSeconds(15);
        while (Instant.now().isBefore(deadline)) {
            boolean attributed = governed.awaitAuditEvents(governed.backend() + "__greeting", "allow", 1).stream().map(JsonValue::asJsonObject)
                    .anyMatch(e -> e.getString("clientId", "").startsWith("api_key:"));
            if (attributed) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no prompts/get event attributed to the API key");
    }

    static String metrics() {
        return Api.get("/metrics?scope=application", null).expect(200).text();
    }

    static JsonObject awaitEvent(String tool, String decision) {
        return governed.awaitAuditEvents(tool, decision, 1).getJsonObject(0);
    }
}
