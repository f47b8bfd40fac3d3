package dev.switchboard.it.console;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.Leftovers;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.it.support.ServerDatabase;
import dev.switchboard.it.support.Servers;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's overview, chat playground, audit, query and gateway pages in a real browser: {@code src/test/node/console-pages-e2e.mjs}
 * drives Debian's Chromium with playwright-core against a shared stdio server-everything (echo auto-approved) and an
 * assistant using it, answered by the scripted LLM provider on {@code it.llm.port}: a chat whose echo call goes to
 * {@code done} inline before the streamed answer, the conversation reopened from the list and continued, a call
 * that is not auto-approved approved in its inline block (then done, its result and the answer), another rejected
 * (cancelled, and the model told so), the audit page (filters, Load more, an event's drawer, Verify chain) over gateway
 * calls made here, the tenants page (create, a policy with allowlist, backends, rate limit and retry rule saved and
 * read back after a reload, a bad pattern refused with the API's code next to the field, rename, tenant_in_use, policy
 * removed, delete, Next and Previous over more than a page), the gateway's sessions of another tenant (filter, Next and
 * Previous over more than a page), the audit trail's tenant filter, a user of the default tenant who finds the shared
 * server managed by admins (no edit, its tool switches read-only), an admin of another tenant refused the default
 * tenant's sessions and audit trail in words and shown where its own chain breaks (one event changed in the database
 * by this test), the query page (schema search, a question answered, CSV, a refusal with its reason), the pages on a
 * phone screen, the gateway's {@code {backend}__echo} listed over MCP from the browser, the live session of an SDK
 * client shown with its backend sessions while it is open and as ended after it left, and the overview's numbers and
 * its charts of the last calls, errors and latency (and their empty state). Screenshots {@code pages-NN-*.png} in
 * {@code target/console-screenshots}; any browser console or page error fails the run.
 */
class ConsoleChatBrowserIT {

    private static final Path LOG = Paths.get("target", "console-pages-e2e.log").toAbsolutePath();
    /** One more than the audit page's page size. */
    private static final int AUDITED_CALLS = 51;
    /** More tenants than the tenants page shows at once (20). */
    private static final int PAGING_TENANTS = 21;
    /** More ended gateway sessions of one tenant than the gateway page shows at once (10). */
    private static final int PAGING_SESSIONS = 11;

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final Leftovers leftovers = new Leftovers();

    @Test
    void chatGatewayAndOverviewInTheBrowser() throws Exception {
        Api.awaitReady();
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        String admin = Api.adminToken();
        String serverName = Servers.GATEWAY_PREFIX + "everything-" + suffix;
        String assistantName = "Chat helper " + suffix;

        long serverId = Servers.register(admin, Json.createObjectBuilder().add("name", serverName).add("command", "node")
                .add("args", Json.createArrayBuilder().add(ServerEverything.entryPoint().toString()).add("stdio"))
                .add("scope", "shared").add("autoApproveTools", Json.createArrayBuilder().add("echo")).build());
        leftovers.server(serverId);
        long assistantId = Api.post("/api/assistants", admin, Json.createObjectBuilder().add("name", assistantName)
                .add("systemPrompt", "You are a helpful assistant. Use the tools when they help.")
                .add("mcpServerIds", Json.createArrayBuilder().add(serverId)).build())
                .expect(201).json().getJsonNumber("id").longValue();
        leftovers.assistant(assistantId);

        String tool = "mcp__" + serverName + "__";
        // one script for the first conversation: echo, the answer, then the answer to the follow-up (which carries the key in its history)
        Script chat = provider.script(
                Reply.tools(new ToolCall("call-echo-1", tool + "echo", "{\"message\":\"hello from the browser\"}"),
                        new ToolCall("call-echo-2", tool + "echo", "{\"text\":\"the wrong argument\"}")),
                Reply.text("The echo tool answered: hello from the browser.").chunkDelay(40),
                Reply.text("Still here, same conversation.\n\n- one `echo` call that worked\n- one that was **refused**\n").chunkDelay(40));
        // get-sum is not auto-approved: the run waits for the browser's decision (Approve in one run, Reject in the other)
        Script approve = provider.script(
                Reply.tools(new ToolCall("call-sum-approved", tool + "get-sum", "{\"a\":2,\"b\":3}")),
                Reply.text("Two and three make five, says get-sum."));
        Script reject = provider.script(
                Reply.tools(new ToolCall("call-sum-rejected", tool + "get-sum", "{\"a\":4,\"b\":5}")),
                Reply.text("Understood, I will not add them."));

        // a long answer, slowly: the browser stops it halfway
        Script slow = provider.script(Reply.text("This answer is long and slow, word by word, so that it can be stopped before it ends. "
                .repeat(6)).chunkDelay(150));

        // the Query page: a question answered with three rows, then SQL the guard refuses
        Script query = provider.script(Reply.text("```sql\nSELECT u.name, o.order_no FROM users u JOIN orders o ON o.user_id = u.id ORDER BY o.id\n```"));
        Script refused = provider.script(Reply.text("```sql\nDELETE FROM orders\n```"));

        // audited tools/calls through the gateway for the audit page: more than its page of 50, so it pages with "Load more"
        // (their input must not show up there)
        JsonArrayBuilder calls = Json.createArrayBuilder();
        for (int i = 0; i < AUDITED_CALLS; i++) {
            calls.add(Json.createObjectBuilder().add("op", "call").add("name", serverName + "__echo")
                    .add("arguments", Json.createObjectBuilder().add("message", "audited from the console test " + i)));
        }
        JsonObject audited = GatewayClient.run(admin, calls.build());
        assertTrue(audited.getJsonArray("steps").getValuesAs(JsonObject.class).stream().allMatch(step -> step.containsKey("result")),
                () -> "the gateway calls worked: " + audited);

        // and one by a user with a long name (an e-mail-like 60 characters), the newest: the audit table must still fit 1280 px
        String longSubject = ("on-call.operations-engineer@platform-team.example.org-" + suffix);
        longSubject = longSubject.substring(0, Math.min(64, longSubject.length()));
        Api.post("/api/users", admin, Json.createObjectBuilder().add("username", longSubject).add("password", "password-" + suffix)
                .add("role", "user").add("tenant", "default").build()).expect(201);
        leftovers.user(longSubject);
        JsonObject longNamed = GatewayClient.run(Api.login(longSubject, "password-" + suffix), Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "call").add("name", serverName + "__echo")
                        .add("arguments", Json.createObjectBuilder().add("message", "audited for a long subject"))).build());
        assertTrue(longNamed.getJsonArray("steps").getJsonObject(0).containsKey("result"), () -> "the long-named user's call worked: " + longNamed);

        // a tenant the browser creates, gives a policy and deletes; its user makes the first delete answer tenant_in_use
        String tenantId = "console-t-" + suffix;
        String tenantUser = "tenant-user-" + suffix;
        leftovers.tenant(tenantId);
        Api.post("/api/users", admin, Json.createObjectBuilder().add("username", tenantUser).add("password", "password-" + tenantUser)
                .add("role", "user").add("tenant", tenantId).build()).expect(201);
        leftovers.user(tenantUser);
        // more tenants than the page's 20, named to sort after it, so the list pages
        for (int i = 0; i < PAGING_TENANTS; i++) {
            String id = String.format("zz-console-page-%s-%02d", suffix, i);
            Api.post("/api/tenants", admin, Json.createObjectBuilder().add("id", id).build()).expect(201);
            leftovers.tenant(id);
        }

        // that user's gateway sessions, opened and ended: the gateway page filters them by tenant and pages them
        String tenantUserToken = Api.login(tenantUser, "password-" + tenantUser);
        for (int i = 0; i < PAGING_SESSIONS; i++) {
            String session = McpHttp.openSession(tenantUserToken, "console-paging-" + i);
            assertEquals(200, McpHttp.endSession(tenantUserToken, session), "the session " + i + " ended");
        }
        // a user of the default tenant (the shared server is managed by admins) and an admin of another tenant
        String user = "console-user-" + suffix;
        String tenantAdmin = "tenant-admin-" + suffix;
        Api.post("/api/users", admin, Json.createObjectBuilder().add("username", user).add("password", "password-" + user)
                .add("role", "user").add("tenant", "default").build()).expect(201);
        leftovers.user(user);
        Api.post("/api/users", admin, Json.createObjectBuilder().add("username", tenantAdmin).add("password", "password-" + tenantAdmin)
                .add("role", "admin").add("tenant", tenantAdmin + "-tenant").build()).expect(201);
        leftovers.user(tenantAdmin);
        // that admin's tenant gets an audit chain of its own (two gateway calls of a built-in server shared there), and
        // one of its events is then changed in the database behind Switchboard's back: the audit page must say where
        // the chain breaks
        String otherTenant = tenantAdmin + "-tenant";
        String tenantAdminToken = Api.login(tenantAdmin, "password-" + tenantAdmin);
        String knowledge = "kb-" + suffix;
        long tenantServerId = Api.post("/api/mcp-servers", tenantAdminToken, Json.createObjectBuilder().add("name", knowledge).add("type", "builtin")
                .add("command", "knowledge").add("scope", "shared").build()).expect(201).json().getJsonNumber("id").longValue();
        leftovers.server(tenantServerId);
        JsonArrayBuilder searches = Json.createArrayBuilder();
        for (String words : List.of("gateway", "audit")) {
            searches.add(Json.createObjectBuilder().add("op", "call").add("name", knowledge + "__search")
                    .add("arguments", Json.createObjectBuilder().add("query", words)));
        }
        JsonObject searched = GatewayClient.run(tenantAdminToken, searches.build());
        assertTrue(searched.getJsonArray("steps").getValuesAs(JsonObject.class).stream().allMatch(step -> step.containsKey("result")),
                () -> "the other tenant's gateway calls worked: " + searched);
        String countOther = "select count(*) from audit_event where tenant_id = '" + otherTenant + "'";
        for (int i = 0; i < 100 && !"2".equals(ServerDatabase.queryString(countOther)); i++) {
            Thread.sleep(100); // the audit writer is asynchronous
        }
        assertEquals("2", ServerDatabase.queryString(countOther), "both calls of the other tenant are audited");
        assertEquals(1, ServerDatabase.update("update audit_event set outcome = 'tampered' where tenant_id = '" + otherTenant
                + "' and chain_seq = 2"), "one event of the other tenant changed");

        JsonObject result = BrowserWalkthrough.run("console-pages-e2e.mjs", LOG, List.of(
                "--server-name", serverName,
                "--assistant-name", assistantName,
                "--key", chat.key(),
                "--approve-key", approve.key(),
                "--reject-key", reject.key(),
                "--slow-key", slow.key(),
                "--query-key", query.key(),
                "--refuse-key", refused.key(),
                "--audited-calls", String.valueOf(AUDITED_CALLS),
                "--long-subject", longSubject,
                "--tenant-id", tenantId,
                "--tenant-user", tenantUser,
                "--paging-tenants", String.valueOf(PAGING_TENANTS),
                "--paging-sessions", String.valueOf(PAGING_SESSIONS),
                "--user", user,
                "--tenant-admin", tenantAdmin)).assertPassed();

        // What the browser did, checked through the REST API and the scripted provider.
        assertEquals(0, chat.remaining(), "the browser's two questions took all three scripted replies");
        JsonObject sent = chat.requests().get(0);
        assertTrue(sent.getBoolean("stream", false), "the console streams");
        assertTrue(sent.getJsonArray("tools").toString().contains(tool + "echo"), "the assistant's tools were offered");

        long conversationId = result.getJsonNumber("conversationId").longValue();
        JsonObject messages = Api.get("/api/conversations/" + conversationId + "/messages", admin).expect(200).json();
        assertEquals(assistantId, messages.getJsonObject("conversation").getJsonNumber("assistantId").longValue());
        JsonObject firstAnswer = null;
        int users = 0;
        for (JsonValue value : messages.getJsonArray("data")) {
            JsonObject m = value.asJsonObject();
            if ("user".equals(m.getString("role"))) {
                users++;
            }
            if ("assistant".equals(m.getString("role")) && firstAnswer == null) {
                firstAnswer = m;
            }
        }
        assertEquals(2, users, "the follow-up continued the reopened conversation: " + messages);
        assertTrue(firstAnswer != null, "the answer is stored");
        Map<String, String> statuses = new HashMap<>();
        for (JsonValue value : firstAnswer.getJsonArray("toolCalls")) {
            statuses.put(value.asJsonObject().getString("id"), value.asJsonObject().getString("status"));
        }
        assertEquals(Map.of("call-echo-1", "done", "call-echo-2", "error"), statuses, "what the blocks showed is what was stored");
        assertTrue(result.getInt("gatewayTools") >= 1, "the gateway listed tools");
        String liveSession = result.getString("liveSessionId");
        JsonObject recorded = Api.get("/api/gateway/sessions?subject=admin&state=ended&limit=500", admin).expect(200).json()
                .getJsonArray("data").getValuesAs(JsonObject.class).stream().filter(s -> s.getString("sessionId").equals(liveSession))
                .findFirst().orElseThrow(() -> new AssertionError("the session the browser showed is recorded: " + liveSession));
        assertEquals("deleted", recorded.getString("endReason"), "the SDK client ended it: " + recorded);
        assertTrue(result.getInt("chartedCalls") >= AUDITED_CALLS, "the overview charted the gateway calls made here");

        assertEquals(0, query.remaining(), "the Query page asked the model");
        assertEquals(0, refused.remaining(), "the refused question asked the model");
        assertEquals(3, result.getInt("csvRows"), "the CSV held the three rows shown");

        // Approve ran the tool and its result went to the model; Reject did not run it and the model was told so.
        assertEquals(0, approve.remaining(), "the approved run asked the model again after the tool ran");
        assertTrue(approve.requests().get(1).toString().contains("The sum of 2 and 3 is 5"), () -> "the tool's result went to the model: "
                + approve.requests().get(1));
        assertEquals(0, reject.remaining(), "the rejected run asked the model again");
        assertTrue(reject.requests().get(1).toString().contains("tool_rejected"), () -> "the model was told of the rejection: "
                + reject.requests().get(1));
        assertEquals("done", toolStatus(admin, result.getJsonNumber("approvedMessageId").longValue(), "call-sum-approved"));
        assertEquals("cancelled", toolStatus(admin, result.getJsonNumber("rejectedMessageId").longValue(), "call-sum-rejected"));

        assertEquals(tenantId, result.getString("deletedTenant"), "the browser deleted its tenant");
        assertEquals(404, Api.get("/api/tenants/" + tenantId, admin).status(), "the deleted tenant is gone");

        long screenshots = BrowserWalkthrough.screenshots("pages-\\d\\d-.*\\.png").size();
        assertEquals(result.getJsonArray("screenshots").size(), screenshots, "one screenshot per step");
    }

    /** The console's pure parts (SSE reader, Prometheus parser) checked by node's own test runner; no server needed. */
    @Test
    void consoleUnitChecks() throws Exception {
        Path units = Paths.get("src", "test", "node", "console-units.mjs").toAbsolutePath();
        Process process = new ProcessBuilder("node", "--test", units.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "node --test finished");
        assertEquals(0, process.exitValue(), () -> "console unit checks failed:\n" + output);
    }

    private static String toolStatus(String token, long messageId, String toolCallId) {
        for (JsonValue value : Api.get("/api/messages/" + messageId, token).expect(200).json().getJsonArray("toolCalls")) {
            if (value.asJsonObject().getString("id").equals(toolCallId)) {
                return value.asJsonObject().getString("status");
            }
        }
        return "missing";
    }
}
