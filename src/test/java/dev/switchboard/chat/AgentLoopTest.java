package dev.switchboard.chat;

import dev.switchboard.llm.LlmException;
import dev.switchboard.llm.LlmSettings;
import dev.switchboard.llm.OpenAiCompatibleClient;
import dev.switchboard.llm.ScriptedProvider;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import dev.switchboard.llm.Usage;
import dev.switchboard.audit.AuditRecord;
import dev.switchboard.audit.AuditTrail;
import dev.switchboard.audit.AuditUnavailableException;
import dev.switchboard.mcp.McpException;
import dev.switchboard.policy.CallAdmission;
import dev.switchboard.policy.LocalRateLimiter;
import dev.switchboard.policy.PolicyJson;
import dev.switchboard.policy.PolicyMetrics;
import dev.switchboard.policy.TenantPolicy;
import dev.switchboard.security.CallerIdentity;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The loop's decisions against the scripted provider, with tools answered in memory. */
class AgentLoopTest {

    static ScriptedProvider provider;
    static ExecutorService executor;
    static ScheduledExecutorService deadlines;
    static OpenAiCompatibleClient llm;

    static final McpTool ECHO = tool("echo", true);
    static final McpTool SUM = tool("get-sum", true);
    static final McpTool RISKY = tool("delete-everything", false);

    @BeforeAll
    static void start() {
        provider = ScriptedProvider.start(0);
        executor = Executors.newCachedThreadPool();
        deadlines = Executors.newSingleThreadScheduledExecutor();
        llm = new OpenAiCompatibleClient(new LlmSettings(URI.create(provider.baseUrl()), "", "m", Duration.ofSeconds(2),
                Duration.ofSeconds(5)), executor, deadlines);
    }

    @AfterAll
    static void stop() {
        provider.close();
        executor.shutdownNow();
        deadlines.shutdownNow();
    }

    static McpTool tool(String name, boolean autoApprove) {
        return new McpTool("mcp__srv__" + name, 7L, "srv", name, name + " tool",
                Json.createObjectBuilder().add("type", "object").build(), autoApprove);
    }

    static ChatTurn turn(Script script, boolean stream, List<JsonObject> clientTools, McpTool... tools) {
        Map<String, McpTool> byName = new java.util.LinkedHashMap<>();
        for (McpTool t : tools) {
            byName.put(t.displayName(), t);
        }
        return new ChatTurn(JsonValue.EMPTY_JSON_OBJECT, List.of(Json.createObjectBuilder().add("role", "user")
                .add("content", "go " + script.key()).build()), clientTools, byName, stream);
    }

    static JsonObject textResult(String text) {
        return Json.createObjectBuilder().add("content", Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("type", "text").add("text", text))).build();
    }

    /** Audit events reported by the loop under test. */
    final List<AuditRecord> audited = new CopyOnWriteArrayList<>();
    /** Where the loop under test reports its calls: {@link #audited}, unless a test puts a failing trail here. */
    AuditTrail trail = audited::add;
    final AtomicInteger denials = new AtomicInteger();
    final AtomicInteger rateLimited = new AtomicInteger();

    /** The loop's policy and audit trail: a tenant with the given policy, a real token bucket, events into {@link #audited}. */
    ToolCallGovernance governance(String policyJson) {
        TenantPolicy policy = PolicyJson.read(Json.createReader(new StringReader(policyJson.replace('\'', '"'))).readObject());
        PolicyMetrics metrics = new PolicyMetrics() {
            @Override
            public void denied(String tenant) {
                denials.incrementAndGet();
            }

            @Override
            public void rateLimited(String tenant) {
                rateLimited.incrementAndGet();
            }
        };
        return new ToolCallGovernance(new CallerIdentity("alice", "acme", Set.of()), "api_key:k1", "trace-1",
                tenant -> policy, new CallAdmission(new LocalRateLimiter(), metrics), trail);
    }

    AgentLoop loop(ToolInvoker invoker, int maxRounds) {
        return loop(invoker, maxRounds, (pending, stillWaiting) -> {
            throw new AssertionError("no call here needs approval: " + pending);
        }, "{}");
    }

    AgentLoop loop(ToolInvoker invoker, int maxRounds, ToolApprovals approvals, String policyJson) {
        return new AgentLoop(llm, invoker, executor, 4, maxRounds, approvals, governance(policyJson));
    }

    /** Each audited call as {@code tool decision outcome}. */
    List<String> auditTrail() {
        return audited.stream().map(r -> r.tool() + " " + r.decision() + " " + r.outcome()).sorted().toList();
    }

    @Test
    void multipleRoundsUntilAPlainAnswerWithUsageSummed() throws LlmException {
        Script script = provider.script(
                Reply.tools(new ToolCall("c1", "mcp__srv__echo", "{\"message\":\"one\"}")),
                Reply.tools(new ToolCall("c2", "mcp__srv__get-sum", "{\"a\":1,\"b\":2}")),
                Reply.text("Done: one and 3"));
        List<String> saved = new CopyOnWriteArrayList<>();
        ChatOutcome outcome = loop((tool, args) -> textResult(tool.toolName() + ":" + args), 20)
                .run(turn(script, false, List.of(), ECHO, SUM), new LoopListener() {
                    @Override
                    public void onProgress(List<ToolCallRecord> records, String content) {
                        saved.add(records.size() + "/" + content);
                    }
                });
        assertEquals("Done: one and 3", outcome.content());
        assertEquals("stop", outcome.finishReason());
        assertEquals(2, outcome.rounds());
        assertEquals(new Usage(30, 15, 45), outcome.usage());
        assertEquals(List.of("mcp__srv__echo", "mcp__srv__get-sum"), outcome.toolsCalled());
        assertEquals(ToolCallStatus.DONE, outcome.records().get(1).status());
        assertEquals(List.of("1/", "2/"), saved, "saved after every round of calls; the end is the outcome's to save");
        assertEquals(List.of("srv__echo allow ok", "srv__get-sum allow ok"), auditTrail(), "every call is audited");
        AuditRecord echo = audited.stream().filter(r -> r.tool().equals("srv__echo")).findFirst().orElseThrow();
        assertEquals(List.of("acme", "alice", "api_key:k1", "tools/call", "srv", "trace-1"),
                List.of(echo.tenantId(), echo.subject(), echo.clientId(), echo.action(), echo.backendId(), echo.traceId()));
        assertEquals(Json.createObjectBuilder().add("message", "one").build(), echo.input(), "the arguments are what gets hashed");
        JsonObject third = script.requests().get(2);
        var messages = third.getJsonArray("messages");
        assertEquals(5, messages.size());
        assertEquals("tool", messages.getJsonObject(2).getString("role"));
        assertEquals("c1", messages.getJsonObject(2).getString("tool_call_id"));
        assertEquals("echo:{\"message\":\"one\"}", messages.getJsonObject(2).getString("content"));
        assertEquals(2, third.getJsonArray("tools").size());
    }

    @Test
    void aResultWhoseAuditEventWasNotWrittenIsWithheld() throws LlmException {
        trail = record -> {
            throw new AuditUnavailableException("the audit event was not written within PT5S");
        };
        Script script = provider.script(Reply.tools(new ToolCall("c1", "mcp__srv__echo", "{\"message\":\"secret result\"}")),
                Reply.text("ok"));
        AtomicInteger ran = new AtomicInteger();
        ChatOutcome outcome = loop((tool, args) -> {
            ran.incrementAndGet();
            return textResult("secret result");
        }, 20).run(turn(script, false, List.of(), ECHO), new LoopListener() { });
        assertEquals(1, ran.get(), "the call ran");
        String toLlm = script.requests().get(1).getJsonArray("messages").getJsonObject(2).getString("content");
        assertTrue(toLlm.contains("audit_unavailable"), toLlm);
        assertFalse(toLlm.contains("secret result"), "its result goes nowhere unaudited");
        assertEquals(ToolCallStatus.ERROR, outcome.records().get(0).status());
    }

    @Test
    void noCallRunsWhileItCouldNotBeAudited() throws LlmException {
        trail = new AuditTrail() {
            @Override
            public void record(AuditRecord record) {
                audited.add(record);
            }

            @Override
            public void checkWriting() {
                throw new AuditUnavailableException("the audit database is not answering");
            }
        };
        Script script = provider.script(Reply.tools(new ToolCall("c1", "mcp__srv__echo", "{}")), Reply.text("ok"));
        AtomicInteger ran = new AtomicInteger();
        loop((tool, args) -> {
            ran.incrementAndGet();
            return textResult("x");
        }, 20).run(turn(script, false, List.of(), ECHO), new LoopListener() { });
        assertEquals(0, ran.get());
        assertTrue(script.requests().get(1).getJsonArray("messages").getJsonObject(2).getString("content").contains("audit_unavailable"));
    }

    @Test
    void callsOfOneRoundRunSideBySide() throws Exception {
        Script script = provider.script(Reply.tools(new ToolCall("a", "mcp__srv__echo", "{}"),
                new ToolCall("b", "mcp__srv__echo", "{}"), new ToolCall("c", "mcp__srv__echo", "{}")), Reply.text("ok"));
        CountDownLatch allIn = new CountDownLatch(3);
        AtomicInteger together = new AtomicInteger();
        ChatOutcome outcome = loop((tool, args) -> {
            allIn.countDown();
            try {
                if (allIn.await(5, TimeUnit.SECONDS)) {
                    together.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return textResult("x");
        }, 20).run(turn(script, true, List.of(), ECHO), new LoopListener() { });
        assertEquals(3, together.get(), "all three calls were running at the same time");
        assertEquals("ok", outcome.content());
    }

    @Test
    void toolErrorsGoBackToTheLlm() throws LlmException {
        Script script = provider.script(Reply.tools(new ToolCall("e1", "mcp__srv__echo", "{}"),
                new ToolCall("e2", "mcp__srv__nothing", "{}"), new ToolCall("e3", "mcp__srv__get-sum", "not json"),
                new ToolCall("e4", "mcp__srv__get-sum", "{}")), Reply.text("recovered"));
        ChatOutcome outcome = loop((tool, args) -> {
            if (tool.toolName().equals("echo")) {
                return Json.createObjectBuilder().add("isError", true).add("content", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "text").add("text", "echo broke"))).build();
            }
            throw new McpException(McpException.Kind.CONNECT_REFUSED, "backend down");
        }, 20).run(turn(script, false, List.of(), ECHO, SUM), new LoopListener() { });
        assertEquals("recovered", outcome.content());
        List<ToolCallRecord> records = outcome.records();
        assertTrue(records.stream().allMatch(r -> r.status() == ToolCallStatus.ERROR && r.isError()));
        var messages = script.requests().get(1).getJsonArray("messages");
        assertEquals("echo broke", messages.getJsonObject(2).getString("content"));
        assertTrue(messages.getJsonObject(3).getString("content").contains("tool_not_found"));
        assertTrue(messages.getJsonObject(4).getString("content").contains("invalid_arguments"));
        assertTrue(messages.getJsonObject(5).getString("content").contains("backend down"));
        assertEquals(null, records.get(1).serverId(), "an unknown tool has no server");
        assertEquals(List.of("srv__echo allow tool_error", "srv__get-sum allow error -32030", "srv__get-sum allow error -32602"),
                auditTrail(), "the gateway's outcome words; an unknown tool reaches nothing and is not audited");
    }

    @Test
    void callerToolsAndUnapprovedToolsGoBackToTheCaller() throws LlmException {
        JsonObject readFile = Json.createObjectBuilder().add("type", "function").add("function", Json.createObjectBuilder()
                .add("name", "read_file").add("parameters", Json.createObjectBuilder().add("type", "object"))).build();
        Script script = provider.script(Reply.tools(new ToolCall("m1", "read_file", "{\"path\":\"/tmp/x\"}"),
                new ToolCall("m2", "mcp__srv__echo", "{}")));
        AtomicInteger ran = new AtomicInteger();
        ChatOutcome outcome = loop((tool, args) -> {
            ran.incrementAndGet();
            return textResult("x");
        }, 20).run(turn(script, false, List.of(readFile), ECHO), new LoopListener() { });
        assertEquals("tool_calls", outcome.finishReason());
        assertEquals(2, outcome.pendingCalls().size());
        assertEquals(0, ran.get(), "nothing of a handed-back round runs");
        assertEquals(ToolCallStatus.PENDING, outcome.records().get(1).status());
        assertEquals(2, script.requests().get(0).getJsonArray("tools").size(), "caller tool + MCP tool offered");
    }

    @Test
    void unapprovedCallsWaitWhileAutoApprovedOnesRunThenRunWithTheEditedArguments() throws LlmException {
        Script script = provider.script(Reply.tools(new ToolCall("r1", "mcp__srv__delete-everything", "{\"path\":\"/\"}"),
                new ToolCall("r2", "mcp__srv__echo", "{}")), Reply.text("deleted only /tmp"));
        List<String> events = new CopyOnWriteArrayList<>();
        JsonObject edited = Json.createObjectBuilder().add("path", "/tmp").build();
        ToolApprovals approvals = (pending, stillWaiting) -> {
            events.add("await " + pending.stream().map(r -> r.id() + ":" + r.status().json()).toList());
            return Map.of("r1", ToolApproval.approve(edited));
        };
        ChatOutcome outcome = loop((tool, args) -> {
            events.add("run " + tool.toolName() + " " + args);
            return textResult("ok " + args);
        }, 20, approvals, "{}").run(turn(script, false, List.of(), ECHO, RISKY), new LoopListener() {
            @Override
            public void onApprovalsNeeded(List<ToolCallRecord> pending, List<ToolCallRecord> all, String content) {
                events.add("shown " + all.stream().map(r -> r.id() + ":" + r.status().json()).toList());
            }
        });
        assertEquals("shown [r1:pending, r2:invoking]", events.get(0), "stored and shown before the wait");
        assertTrue(events.indexOf("await [r1:pending]") > 0);
        assertTrue(events.indexOf("run delete-everything {\"path\":\"/tmp\"}") > events.indexOf("await [r1:pending]"),
                "the approved call runs after the decision, with the user's arguments: " + events);
        assertEquals("deleted only /tmp", outcome.content());
        assertEquals(ToolCallStatus.DONE, outcome.records().get(0).status());
        assertEquals(edited, outcome.records().get(0).arguments());
        assertEquals("ok {\"path\":\"/tmp\"}", script.requests().get(1).getJsonArray("messages").getJsonObject(2).getString("content"));
    }

    @Test
    void refusedAndTimedOutCallsGoBackToTheLlmWithoutRunning() throws LlmException {
        Script script = provider.script(Reply.tools(new ToolCall("n1", "mcp__srv__delete-everything", "{}"),
                new ToolCall("n2", "mcp__srv__delete-everything", "{}")), Reply.text("I was not allowed to."));
        AtomicInteger ran = new AtomicInteger();
        ToolApprovals approvals = (pending, stillWaiting) -> Map.of(
                "n1", ToolApproval.refuse(ToolApproval.rejection("mcp__srv__delete-everything")),
                "n2", ToolApproval.refuse(ToolApproval.timeout("mcp__srv__delete-everything", Duration.ofMinutes(5))));
        ChatOutcome outcome = loop((tool, args) -> {
            ran.incrementAndGet();
            return textResult("x");
        }, 20, approvals, "{}").run(turn(script, false, List.of(), RISKY), new LoopListener() { });
        assertEquals(0, ran.get());
        assertEquals("I was not allowed to.", outcome.content());
        assertEquals(List.of(ToolCallStatus.CANCELLED, ToolCallStatus.CANCELLED), outcome.records().stream().map(ToolCallRecord::status).toList());
        assertEquals(List.of(), outcome.toolsCalled(), "nothing ran");
        var sent = script.requests().get(1).getJsonArray("messages");
        assertTrue(sent.getJsonObject(2).getString("content").contains("tool_rejected"), sent.toString());
        assertTrue(sent.getJsonObject(3).getString("content").contains("approval_timeout"), sent.toString());
        assertTrue(sent.getJsonObject(3).getString("content").contains("PT5M"), sent.toString());
        assertEquals(List.of("srv__delete-everything approval_timeout null", "srv__delete-everything rejected null"), auditTrail(),
                "refusals by the user and by the clock are audited as decisions");
    }

    @Test
    void aToolOutsideTheTenantsAllowlistIsRefusedWithoutAskingOrRunning() throws LlmException {
        Script script = provider.script(Reply.tools(new ToolCall("p1", "mcp__srv__delete-everything", "{}"),
                new ToolCall("p2", "mcp__srv__echo", "{\"message\":\"hi\"}")), Reply.text("echo only"));
        List<String> ran = new CopyOnWriteArrayList<>();
        ChatOutcome outcome = loop((tool, args) -> {
            ran.add(tool.toolName());
            return textResult("x");
        }, 20, (pending, stillWaiting) -> {
            throw new AssertionError("a call the allowlist refuses is not put to the user: " + pending);
        }, "{'tools':['srv__echo']}").run(turn(script, false, List.of(), RISKY, ECHO), new LoopListener() { });

        assertEquals(List.of("echo"), ran);
        ToolCallRecord refused = outcome.records().get(0);
        assertEquals(ToolCallStatus.CANCELLED, refused.status());
        assertTrue(refused.isError());
        JsonObject error = refused.response().asJsonObject().getJsonObject("error");
        assertEquals("policy_denied", error.getString("code"));
        assertEquals("policy_denied: tool 'srv__delete-everything' is not in the allowlist of tenant 'acme'", error.getString("message"));
        assertEquals(error.getString("message"), Json.createReader(new StringReader(script.requests().get(1).getJsonArray("messages")
                .getJsonObject(2).getString("content"))).readObject().getJsonObject("error").getString("message"), "the LLM reads why");
        assertEquals(List.of("mcp__srv__echo"), outcome.toolsCalled());
        assertEquals(List.of("srv__delete-everything deny null", "srv__echo allow ok"), auditTrail());
        assertEquals(1, denials.get());
    }

    @Test
    void callsOverTheRateLimitAreRefusedWithARetryAfterAndNeverRun() throws LlmException {
        Script script = provider.script(Reply.tools(new ToolCall("q1", "mcp__srv__echo", "{}"), new ToolCall("q2", "mcp__srv__echo", "{}"),
                new ToolCall("q3", "mcp__srv__echo", "{}")), Reply.text("one got through"));
        AtomicInteger ran = new AtomicInteger();
        ChatOutcome outcome = loop((tool, args) -> {
            ran.incrementAndGet();
            return textResult("x");
        }, 20, (pending, stillWaiting) -> Map.of(), "{'rateLimit':{'requests':1,'per':'minute'}}")
                .run(turn(script, false, List.of(), ECHO), new LoopListener() { });

        assertEquals(1, ran.get(), "the backend saw only the admitted call");
        List<JsonObject> refusals = outcome.records().stream().filter(r -> r.status() == ToolCallStatus.CANCELLED)
                .map(r -> r.response().asJsonObject().getJsonObject("error")).toList();
        assertEquals(2, refusals.size());
        for (JsonObject refusal : refusals) {
            assertEquals("rate_limited", refusal.getString("code"));
            assertTrue(refusal.getString("message").startsWith("rate_limited: tenant 'acme' is over its limit of 1 per minute (burst 1); retry after "),
                    refusal.getString("message"));
            long wait = refusal.getJsonNumber("retry_after_ms").longValue();
            assertTrue(wait > 0 && wait <= 60_000, "within the minute: " + wait);
        }
        assertEquals(List.of("srv__echo allow ok", "srv__echo rate_limited null", "srv__echo rate_limited null"), auditTrail());
        assertEquals(2, rateLimited.get());
    }

    @Test
    void roundLimitEndsWithAnAnswerWithoutTools() throws LlmException {
        Script script = provider.script(
                Reply.tools(new ToolCall("l1", "mcp__srv__echo", "{}")),
                Reply.tools(new ToolCall("l2", "mcp__srv__echo", "{}")),
                Reply.text("I stopped after 2 rounds"));
        ChatOutcome outcome = loop((tool, args) -> textResult("again"), 2).run(turn(script, true, List.of(), ECHO), new LoopListener() { });
        assertTrue(outcome.roundLimitReached());
        assertEquals(2, outcome.rounds());
        assertEquals("I stopped after 2 rounds", outcome.content());
        JsonObject last = script.requests().get(2);
        assertFalse(last.containsKey("tools"), "the final call offers no tools");
        var messages = last.getJsonArray("messages");
        assertTrue(messages.getJsonObject(messages.size() - 1).getString("content").contains("limit of 2"));
    }

    static ChatTurn withChoice(ChatTurn turn, JsonValue choice) {
        return new ChatTurn(Json.createObjectBuilder(turn.options()).add("tool_choice", choice).build(), turn.messages(),
                turn.clientTools(), turn.mcpTools(), turn.stream());
    }

    @Test
    void requiredIsEmulatedForProvidersThatIgnoreItAndAppliesToTheFirstCallOnly() throws LlmException {
        Script script = provider.script(Reply.text("I would rather chat"), Reply.tools(new ToolCall("f1", "mcp__srv__echo", "{}")),
                Reply.text("done"));
        List<String> streamed = new CopyOnWriteArrayList<>();
        ChatOutcome outcome = loop((tool, args) -> textResult("x"), 20).run(withChoice(turn(script, true, List.of(), ECHO),
                Json.createValue("required")), new LoopListener() {
                    @Override
                    public void onContent(String delta) {
                        streamed.add(delta);
                    }
                });
        assertEquals("done", outcome.content(), "the ignored choice's text is dropped");
        assertEquals(1, outcome.rounds());
        assertEquals(new Usage(30, 15, 45), outcome.usage());
        List<JsonObject> sent = script.requests();
        assertEquals("required", sent.get(0).getString("tool_choice"));
        assertFalse(sent.get(0).getBoolean("stream", false), "a forced call is not streamed");
        var nudged = sent.get(1).getJsonArray("messages");
        assertTrue(nudged.getJsonObject(nudged.size() - 1).getString("content").contains("calling one of the tools"));
        assertEquals("auto", sent.get(2).getString("tool_choice"), "later rounds may answer");
        assertFalse(String.join("", streamed).contains("rather chat"));
    }

    @Test
    void noneOffersNoTools() throws LlmException {
        Script script = provider.script(Reply.tools(new ToolCall("n1", "mcp__srv__echo", "{}")));
        AtomicInteger ran = new AtomicInteger();
        ChatOutcome outcome = loop((tool, args) -> {
            ran.incrementAndGet();
            return textResult("x");
        }, 20).run(withChoice(turn(script, false, List.of(), ECHO), Json.createValue("none")), new LoopListener() { });
        assertEquals(0, ran.get(), "calls a provider makes anyway are ignored");
        assertEquals("stop", outcome.finishReason());
        assertFalse(script.requests().get(0).containsKey("tools"));
        assertFalse(script.requests().get(0).containsKey("tool_choice"));
    }
}
