package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.observability.TraceContext;
import dev.switchboard.policy.LocalIdempotentResults;
import dev.switchboard.policy.LocalRateLimiter;
import dev.switchboard.policy.PolicyJson;
import dev.switchboard.policy.PolicyMetrics;
import dev.switchboard.policy.RetrySettings;
import dev.switchboard.policy.TenantPolicy;
import dev.switchboard.security.CallerIdentity;
import io.github.bucket4j.TimeMeter;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The policy layer over a recording router: what it hides, refuses, limits and retries, and what reaches the backend. */
class PolicyRouterTest {

    static final ClientContext CALLER = new ClientContext(new CallerIdentity("alice", "acme", Set.of()), "cli", "s1", TraceContext.newTrace());

    /** Answers with the scripted responses in order (then the last one again) and records every request. */
    static final class Recording implements McpRouter {
        final List<JsonRpcMessage> seen = new ArrayList<>();
        final Deque<Function<JsonRpcMessage, JsonObject>> answers = new ArrayDeque<>();

        Recording answer(Function<JsonRpcMessage, JsonObject> answer) {
            answers.add(answer);
            return this;
        }

        @Override
        public JsonObject initializeResult(String protocolVersion) {
            return JsonObject.EMPTY_JSON_OBJECT;
        }

        @Override
        public synchronized JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress,
                                                  ServerRequestHandler clientRequests) {
            seen.add(request);
            Function<JsonRpcMessage, JsonObject> next = answers.size() > 1 ? answers.poll() : answers.peek();
            return new JsonRpcMessage(next.apply(request));
        }
    }

    static final class CountingMetrics extends PolicyMetrics {
        int denied;
        int limited;
        int retried;

        @Override
        public void denied(String tenant) {
            denied++;
        }

        @Override
        public void rateLimited(String tenant) {
            limited++;
        }

        @Override
        public void retried(String tenant) {
            retried++;
        }
    }

    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final CountingMetrics metrics = new CountingMetrics();
    final PolicyRouter.Services services = new PolicyRouter.Services(new LocalRateLimiter(new TimeMeter() {
        @Override
        public long currentTimeNanos() {
            return nanos.get();
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    }), metrics, new RetrySettings(3, Duration.ZERO, Duration.ZERO),
            new LocalIdempotentResults(Duration.ofMinutes(10), 100, Duration.ofSeconds(5), nanos::get));

    static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text.replace('\'', '"')))) {
            return reader.readObject();
        }
    }

    static TenantPolicy policy(String text) {
        return PolicyJson.read(json(text));
    }

    static JsonRpcMessage request(int id, String method, String params) {
        return new JsonRpcMessage(json("{'jsonrpc':'2.0','id':" + id + ",'method':'" + method + "','params':" + params + "}"));
    }

    static Function<JsonRpcMessage, JsonObject> result(String result) {
        return request -> json("{'jsonrpc':'2.0','id':" + request.id() + ",'result':" + result + "}");
    }

    static Function<JsonRpcMessage, JsonObject> error(int code) {
        return request -> json("{'jsonrpc':'2.0','id':" + request.id() + ",'error':{'code':" + code + ",'message':'down'}}");
    }

    PolicyRouter router(Recording backend, String policy, String passthrough) {
        return new PolicyRouter(backend, CALLER, policy(policy), passthrough, services);
    }

    static JsonObject errorOf(JsonRpcMessage response) {
        return response.json().getJsonObject("error");
    }

    @Test
    void toolsOutsideTheAllowlistAreNotListedAndPagesEmptiedByThePolicyAreSkipped() {
        Recording backend = new Recording()
                .answer(result("{'tools':[{'name':'files__write'},{'name':'files__delete'}],'nextCursor':'c1'}"))
                .answer(result("{'tools':[{'name':'everything__echo'},{'name':'everything__add'}],'nextCursor':'c2'}"))
                .answer(result("{'tools':[{'name':'files__read'}]}"));
        PolicyRouter router = router(backend, "{'tools':['everything__echo','files__read']}", null);

        JsonObject first = router.handle(request(1, "tools/list", "{}"), null, null).json().getJsonObject("result");
        assertEquals("[{\"name\":\"everything__echo\"}]", first.getJsonArray("tools").toString(), "page 1 was all hidden: page 2 answers");
        assertEquals("c2", first.getString("nextCursor"));
        assertEquals("c1", backend.seen.get(1).params().getString("cursor"), "the skipped page's cursor was followed");

        JsonObject last = router.handle(request(2, "tools/list", "{'cursor':'c2'}"), null, null).json().getJsonObject("result");
        assertEquals("[{\"name\":\"files__read\"}]", last.getJsonArray("tools").toString());
        assertFalse(last.containsKey("nextCursor"));
    }

    @Test
    void aToolOutsideTheAllowlistIsDeniedWithoutReachingTheBackend() {
        Recording backend = new Recording().answer(result("{'content':[]}"));
        JsonRpcMessage answer = router(backend, "{'tools':['everything__*']}", null)
                .handle(request(3, "tools/call", "{'name':'files__delete','arguments':{'path':'/'}}"), null, null);
        JsonObject error = errorOf(answer);
        assertEquals(-32020, error.getInt("code"));
        assertEquals("policy_denied: tool 'files__delete' is not in the allowlist of tenant 'acme'", error.getString("message"));
        assertEquals("deny", error.getJsonObject("data").getString("decision"));
        assertTrue(backend.seen.isEmpty());
        assertEquals(1, metrics.denied);

        router(backend, "{'tools':['everything__*']}", null)
                .handle(request(4, "tools/call", "{'name':'everything__echo','arguments':{}}"), null, null);
        assertEquals(1, backend.seen.size(), "a wildcard admits every tool of its backend");
    }

    @Test
    void aPassthroughMatchesItsBareNamesAsBackendAndTool() {
        Recording backend = new Recording().answer(result("{'tools':[{'name':'echo'},{'name':'add'}]}"));
        PolicyRouter router = router(backend, "{'tools':['ev__echo']}", "ev");
        assertEquals("[{\"name\":\"echo\"}]", router.handle(request(1, "tools/list", "{}"), null, null)
                .json().getJsonObject("result").getJsonArray("tools").toString());
        assertEquals(-32020, errorOf(router.handle(request(2, "tools/call", "{'name':'add'}"), null, null)).getInt("code"));
        assertEquals("policy_denied: tool 'ev__add' is not in the allowlist of tenant 'acme'",
                errorOf(router.handle(request(2, "tools/call", "{'name':'add'}"), null, null)).getString("message"));
    }

    @Test
    void promptsAndResourcesOfBackendsTheTenantMayNotUseAreHiddenAndDenied() {
        Recording backend = new Recording().answer(result("{'prompts':[{'name':'a__p'},{'name':'b__p'}]}"));
        PolicyRouter router = router(backend, "{'resourceBackends':['a']}", null);
        assertEquals("[{\"name\":\"a__p\"}]", router.handle(request(1, "prompts/list", "{}"), null, null)
                .json().getJsonObject("result").getJsonArray("prompts").toString());
        JsonObject denied = errorOf(router.handle(request(2, "prompts/get", "{'name':'b__p'}"), null, null));
        assertEquals("policy_denied: tenant 'acme' may not use the prompts of backend 'b'", denied.getString("message"));
        assertEquals(-32020, errorOf(router.handle(request(3, "resources/read", "{'uri':'switchboard://b/file:///x'}"), null, null)).getInt("code"));
        assertEquals(-32020, errorOf(router.handle(request(4, "resources/subscribe", "{'uri':'switchboard://b/file:///x'}"), null, null)).getInt("code"));
        assertEquals(-32020, errorOf(router.handle(request(5, "completion/complete",
                "{'ref':{'type':'ref/prompt','name':'b__p'},'argument':{'name':'x','value':''}}"), null, null)).getInt("code"));
        assertEquals(1, backend.seen.size(), "only the list reached the backend");

        Recording everything = new Recording().answer(result("{'resources':[{'uri':'switchboard://a/1'},{'uri':'switchboard://b/2'}]}"));
        assertEquals("[{\"uri\":\"switchboard://a/1\"}]", router(everything, "{'resourceBackends':['a']}", null)
                .handle(request(1, "resources/list", "{}"), null, null).json().getJsonObject("result").getJsonArray("resources").toString());
    }

    @Test
    void theRateLimitGrantsExactlyTheBurstThenRefusesWithARetryHintAndNeverCallsTheBackend() {
        Recording backend = new Recording().answer(result("{'content':[]}"));
        PolicyRouter router = router(backend, "{'rateLimit':{'requests':3,'per':'minute','burst':3}}", null);
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            JsonObject answer = router.handle(request(i, "tools/call", "{'name':'a__t'}"), null, null).json();
            codes.add(answer.containsKey("error") ? answer.getJsonObject("error").getInt("code") : 0);
        }
        assertEquals(List.of(0, 0, 0, -32010, -32010), codes);
        assertEquals(3, backend.seen.size(), "refused calls never reach the backend");
        assertEquals(2, metrics.limited);

        JsonObject refused = errorOf(router.handle(request(9, "tools/call", "{'name':'a__t'}"), null, null));
        assertEquals("rate_limited: tenant 'acme' is over its limit of 3 per minute (burst 3); retry after 20 s",
                refused.getString("message"));
        assertEquals(20_000, refused.getJsonObject("data").getJsonNumber("retryAfterMs").longValue());
        assertEquals("rate_limited", refused.getJsonObject("data").getString("decision"));

        nanos.addAndGet(Duration.ofSeconds(20).toNanos());
        assertFalse(router.handle(request(10, "tools/call", "{'name':'a__t'}"), null, null).json().containsKey("error"),
                "one permit is back after a third of a minute");
        assertTrue(router.handle(request(11, "tools/call", "{'name':'a__t'}"), null, null).json().containsKey("error"));
        assertTrue(router.handle(request(12, "tools/list", "{}"), null, null).json().containsKey("result"), "lists are not limited");
    }

    @Test
    void aPerSubjectLimitGivesEachSubjectItsOwnBucket() {
        Recording backend = new Recording().answer(result("{'content':[]}"));
        String limit = "{'rateLimit':{'requests':1,'per':'second','burst':1,'perSubject':true}}";
        PolicyRouter alice = router(backend, limit, null);
        PolicyRouter bob = new PolicyRouter(backend, new ClientContext(new CallerIdentity("bob", "acme", Set.of()), null, "s2", TraceContext.newTrace()), policy(limit), null, services);
        assertTrue(alice.handle(request(1, "prompts/get", "{'name':'a__p'}"), null, null).json().containsKey("result"));
        assertEquals(-32010, errorOf(alice.handle(request(2, "prompts/get", "{'name':'a__p'}"), null, null)).getInt("code"));
        assertTrue(bob.handle(request(3, "prompts/get", "{'name':'a__p'}"), null, null).json().containsKey("result"));
    }

    static final String RETRYABLE = "{'toolRules':[{'tool':'a__flaky','retryAllowed':true,'risk':'low'}]}";
    static final String WITH_KEY = "{'name':'a__flaky','arguments':{'n':1},'_meta':{'idempotencyKey':'k1'}}";
    static final String WITHOUT_KEY = "{'name':'a__flaky','arguments':{'n':1}}";

    Recording failingOnce() {
        return new Recording().answer(error(-32030)).answer(result("{'content':[{'type':'text','text':'ok'}]}"));
    }

    @Test
    void aFailedCallIsRetriedWhenTheToolAllowsItIsLowRiskAndTheRequestHasAKey() {
        Recording backend = failingOnce();
        JsonRpcMessage answer = router(backend, RETRYABLE, null).handle(request(1, "tools/call", WITH_KEY), null, null);
        assertTrue(answer.json().containsKey("result"), answer.json().toString());
        assertEquals(2, backend.seen.size());
        assertEquals(1, metrics.retried);
    }

    @Test
    void withoutAnyOneOfTheThreeConditionsAFailedCallIsNotRetried() {
        Recording noKey = failingOnce();
        assertEquals(-32030, errorOf(router(noKey, RETRYABLE, null).handle(request(1, "tools/call", WITHOUT_KEY), null, null)).getInt("code"));
        assertEquals(1, noKey.seen.size(), "no idempotency key");

        Recording notAllowed = failingOnce();
        router(notAllowed, "{'toolRules':[{'tool':'a__flaky','retryAllowed':false,'risk':'low'}]}", null)
                .handle(request(1, "tools/call", WITH_KEY), null, null);
        assertEquals(1, notAllowed.seen.size(), "not retry_allowed");

        Recording risky = failingOnce();
        router(risky, "{'toolRules':[{'tool':'a__flaky','retryAllowed':true,'risk':'medium'}]}", null)
                .handle(request(1, "tools/call", WITH_KEY), null, null);
        assertEquals(1, risky.seen.size(), "not low risk");

        Recording unruled = failingOnce();
        router(unruled, "{}", null).handle(request(1, "tools/call",
                "{'name':'a__flaky','arguments':{},'_meta':{'idempotencyKey':'k9'}}"), null, null);
        assertEquals(1, unruled.seen.size(), "no rule: annotations alone never allow a retry");
        assertEquals(0, metrics.retried);
    }

    @Test
    void onlyTransportFailuresAndTimeoutsAreRetriedAndAttemptsAreBounded() {
        Recording toolError = new Recording().answer(result("{'isError':true,'content':[]}"));
        router(toolError, RETRYABLE, null).handle(request(1, "tools/call", WITH_KEY), null, null);
        assertEquals(1, toolError.seen.size(), "a tool's own error result is an answer");

        Recording rpcError = new Recording().answer(error(-32602));
        router(rpcError, RETRYABLE, null).handle(request(1, "tools/call",
                "{'name':'a__flaky','arguments':{},'_meta':{'idempotencyKey':'k3'}}"), null, null);
        assertEquals(1, rpcError.seen.size());

        Recording down = new Recording().answer(error(-32040));
        assertEquals(-32040, errorOf(router(down, RETRYABLE, null).handle(request(1, "tools/call",
                "{'name':'a__flaky','arguments':{},'_meta':{'idempotencyKey':'k2'}}"), null, null)).getInt("code"));
        assertEquals(3, down.seen.size(), "max-attempts 3");
    }

    @Test
    void aRepeatedIdempotencyKeyReturnsTheFirstResultWithoutCallingAgain() {
        Recording backend = new Recording().answer(result("{'content':[{'type':'text','text':'first'}]}"))
                .answer(result("{'content':[{'type':'text','text':'second'}]}"));
        PolicyRouter router = router(backend, "{}", null);
        router.handle(request(1, "tools/call", WITH_KEY), null, null);
        JsonObject again = router.handle(request(2, "tools/call", WITH_KEY), null, null).json();
        assertEquals("first", again.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
        assertEquals(2, again.getInt("id"), "answered under the new request's id");
        assertEquals(1, backend.seen.size());

        JsonObject reused = errorOf(router.handle(request(3, "tools/call",
                "{'name':'a__flaky','arguments':{'n':2},'_meta':{'idempotencyKey':'k1'}}"), null, null));
        assertEquals(-32602, reused.getInt("code"));
        assertEquals("Invalid params: idempotency key 'k1' was already used for a different call (tool or arguments differ)",
                reused.getString("message"));
    }

    @Test
    void theHttpHeaderBecomesTheRequestsKey() {
        JsonRpcMessage call = request(1, "tools/call", WITHOUT_KEY);
        assertEquals("h1", PolicyRouter.withIdempotencyKey(call, "h1").params().getJsonObject("_meta").getString("idempotencyKey"));
        assertEquals("k1", PolicyRouter.withIdempotencyKey(request(1, "tools/call", WITH_KEY), "h1")
                .params().getJsonObject("_meta").getString("idempotencyKey"), "a key in _meta wins");
        assertEquals(call, PolicyRouter.withIdempotencyKey(call, null));
    }

    @Test
    void anUnrestrictedTenantPassesEverythingThrough() {
        Recording backend = new Recording().answer(result("{'tools':[{'name':'x__y'}]}"));
        PolicyRouter router = new PolicyRouter(backend, CALLER, TenantPolicy.UNRESTRICTED, null, services);
        assertEquals(1, router.handle(request(1, "tools/list", "{}"), null, null).json().getJsonObject("result").getJsonArray("tools").size());
        assertTrue(router.handle(request(2, "tools/call", "{'name':'x__y'}"), null, null).json().containsKey("result"));
    }
}
