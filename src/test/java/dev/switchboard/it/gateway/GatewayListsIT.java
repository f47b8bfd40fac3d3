package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.CrowdedGateway;
import dev.switchboard.it.support.McpHttp;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lists behind the console's gateway page at the size of a real installation (over 70 tools from six backends,
 * 30 recorded sessions, {@link CrowdedGateway}): {@code GET /api/gateway/tools} pages through exactly what
 * {@code tools/list} on {@code /mcp} offers, its filters narrow it, and {@code GET /api/gateway/sessions} filters by
 * user, client, protocol version and state, newest first; bad parameters answer their exact errors.
 */
class GatewayListsIT {

    @RegisterExtension
    static final CrowdedGateway crowd = new CrowdedGateway("crowd");

    @Test
    void pagesHoldEveryToolOnceInTheOrderMcpListsThem() {
        List<String> offered = mcpToolNames(crowd.adminToken(), crowd.backends());
        assertTrue(offered.size() >= 70, () -> "over 70 tools behind /mcp: " + offered.size());

        List<String> paged = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonObject page = tools("status=offered&limit=7" + (cursor == null ? "" : "&cursor=" + cursor));
            List<JsonObject> data = page.getJsonArray("data").getValuesAs(JsonObject.class);
            assertTrue(data.size() <= 7 && !data.isEmpty(), () -> "a page of 1 to 7 tools: " + data.size());
            assertEquals(offered.size(), page.getInt("total"), "total counts every matching tool on every page");
            data.forEach(tool -> paged.add(tool.getString("name")));
            cursor = page.getString("nextCursor", null);
            pages++;
        } while (cursor != null && pages < 100);
        assertEquals(offered, paged, "the pages hold what tools/list offers, each tool once, in its order");
        assertEquals((offered.size() + 6) / 7, pages);

        JsonObject all = tools("limit=500");
        assertFalse(all.containsKey("nextCursor"), "one page of 500 holds them all");
        List<JsonObject> backends = all.getJsonArray("backends").getValuesAs(JsonObject.class);
        assertEquals(crowd.backends(), backends.stream().map(b -> b.getString("name")).toList(), "every backend, by name");
        assertTrue(backends.stream().allMatch(b -> b.getBoolean("answered")), backends::toString);
        assertEquals(all.getInt("total"), backends.stream().mapToInt(b -> b.getInt("toolCount")).sum(), "the backends' counts add up");

        JsonObject echo = all.getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .filter(t -> t.getString("name").equals(crowd.backends().get(0) + "__echo")).findFirst().orElseThrow();
        assertEquals(crowd.backends().get(0), echo.getString("backend"));
        assertEquals("echo", echo.getString("tool"));
        assertEquals("offered", echo.getString("status"));
        assertTrue(echo.getString("description").toLowerCase().contains("echo"), echo::toString);
        assertTrue(echo.getJsonObject("inputSchema").getJsonObject("properties").containsKey("message"), echo::toString);
        assertEquals(true, echo.getJsonObject("annotations").getBoolean("readOnlyHint"), echo::toString);
    }

    @Test
    void filtersNarrowTheList() {
        List<JsonObject> all = tools("limit=500").getJsonArray("data").getValuesAs(JsonObject.class);
        String first = crowd.backends().get(0);

        List<JsonObject> ofFirst = data(tools("limit=500&server=" + first));
        assertEquals(all.stream().filter(t -> t.getString("backend").equals(first)).toList(), ofFirst, "one backend's tools");
        assertTrue(ofFirst.size() >= 12 && ofFirst.size() < all.size(), () -> "one of six backends: " + ofFirst.size());

        // text, in any case, in the public name or the description
        List<JsonObject> echoes = data(tools("limit=500&q=ECHO"));
        assertEquals(all.stream().filter(t -> String.join(" ", t.getString("name"), t.getString("title", ""), t.getString("description", ""))
                .toLowerCase().contains("echo")).toList(), echoes);
        assertTrue(names(echoes).containsAll(crowd.backends().stream().map(b -> b + "__echo").toList()), () -> "every backend's echo: " + names(echoes));
        assertEquals(List.of(first + "__echo"), names(data(tools("server=" + first + "&q=" + encoded(first + "__echo")))));

        // annotations, as the specification reads them
        List<JsonObject> readOnly = data(tools("limit=500&annotation=readOnly"));
        assertTrue(readOnly.stream().allMatch(t -> t.getJsonObject("annotations").getBoolean("readOnlyHint")), readOnly::toString);
        assertTrue(names(readOnly).contains(first + "__get-sum") && !names(readOnly).contains(first + "__toggle-subscriber-updates"),
                () -> names(readOnly).toString());
        List<JsonObject> openWorld = data(tools("limit=500&annotation=openWorld"));
        assertTrue(names(openWorld).contains(first + "__gzip-file-as-resource") && !names(openWorld).contains(first + "__echo"),
                () -> names(openWorld).toString());

        JsonObject none = tools("q=" + encoded("no tool is called this"));
        assertEquals(0, none.getInt("total"));
        assertTrue(none.getJsonArray("data").isEmpty());
        assertFalse(none.containsKey("nextCursor"));
    }

    @Test
    void toolsTheTenantPolicyHidesAreMarkedAndLeftOutOfMcp() throws Exception {
        String hiddenBackend = crowd.backends().get(1);
        List<String> allowed = crowd.backends().stream().filter(b -> !b.equals(hiddenBackend)).map(b -> b + "__*").toList();
        policy(Json.createObjectBuilder().add("tools", Json.createArrayBuilder(allowed)).build());
        try {
            JsonObject hidden = tools("limit=500&status=hidden");
            for (int i = 0; i < 100 && hidden.getInt("total") == 0; i++) {
                Thread.sleep(100); // the gateway reads a tenant's policy through a cache of a few seconds
                hidden = tools("limit=500&status=hidden");
            }
            List<JsonObject> hiddenTools = data(hidden);
            assertFalse(hiddenTools.isEmpty(), "the policy hides tools");
            assertTrue(hiddenTools.stream().allMatch(t -> t.getString("backend").equals(hiddenBackend) && t.getString("status").equals("hidden")),
                    () -> names(hiddenTools).toString());
            List<String> offered = names(data(tools("limit=500&status=offered")));
            assertEquals(mcpToolNames(crowd.adminToken(), crowd.backends().stream().filter(b -> !b.equals(hiddenBackend)).toList()), offered,
                    "what /mcp lists is what the page calls offered");
            assertEquals(tools("limit=1").getInt("total"), offered.size() + hiddenTools.size(), "without the filter, both");
        } finally {
            policy(Json.createObjectBuilder().build());
            for (int i = 0; i < 100 && tools("limit=1&status=hidden").getInt("total") > 0; i++) {
                Thread.sleep(100); // the other tests see the policy without an allowlist
            }
        }
    }

    @Test
    void badToolParametersAreRefusedWithTheirReason() {
        String admin = crowd.adminToken();
        Map<String, String> refused = Map.of(
                "limit=0", "invalid_limit 'limit' must be between 1 and 500",
                "limit=501", "invalid_limit 'limit' must be between 1 and 500",
                "limit=ten", "invalid_limit 'limit' must be a whole number",
                "cursor=not-a-cursor", "invalid_cursor 'cursor' must be the nextCursor of an earlier page",
                "annotation=readonly", "invalid_annotation 'annotation' must be one of [destructive, idempotent, openWorld, readOnly]",
                "status=denied", "invalid_status 'status' must be one of [hidden, offered]",
                "q=" + "x".repeat(201), "invalid_q 'q' must be at most 200 characters");
        refused.forEach((query, expected) -> {
            Api.Reply reply = Api.get("/api/gateway/tools?" + query, admin).expect(400);
            assertEquals(expected, reply.errorCode() + " " + reply.errorMessage(), query);
        });
        String user = Api.login(crowd.tenant() + "-user1", CrowdedGateway.password(crowd.tenant() + "-user1"));
        assertEquals(403, Api.get("/api/gateway/tools", user).status(), "admins only");
    }

    @Test
    void sessionsFilterByUserClientProtocolAndState() {
        List<CrowdedGateway.Session> opened = crowd.sessions();
        for (String client : CrowdedGateway.CLIENTS) {
            assertSessions("client=" + client, s -> s.client().equals(client));
            assertSessions("client=" + client + "&state=ended", s -> s.client().equals(client) && s.ended());
            assertSessions("client=" + client + "&state=open", s -> s.client().equals(client) && !s.ended());
        }
        for (String version : CrowdedGateway.VERSIONS) {
            assertSessions("protocolVersion=" + version + "&q=-user", s -> s.version().equals(version) && !s.user().equals(crowd.admin()));
        }
        String user = crowd.tenant() + "-user2";
        assertSessions("subject=" + user, s -> s.user().equals(user));
        assertSessions("q=USER2", s -> s.user().equals(user));
        assertSessions("q=beta&state=ended", s -> s.client().equals("beta-ide") && s.ended());
        // LIKE's wildcards are searched for as themselves: no name here holds them
        assertEquals(0, sessions("q=%25").getInt("total"));
        assertEquals(0, sessions("q=_").getInt("total"));

        // newest first, each once across pages of four
        String client = CrowdedGateway.CLIENTS.get(0);
        List<String> expected = new ArrayList<>(opened.stream().filter(s -> s.client().equals(client)).map(CrowdedGateway.Session::id).toList());
        Collections.reverse(expected);
        List<String> paged = new ArrayList<>();
        String cursor = null;
        do {
            JsonObject page = sessions("client=" + client + "&limit=4" + (cursor == null ? "" : "&cursor=" + cursor));
            assertEquals(expected.size(), page.getInt("total"));
            page.getJsonArray("data").getValuesAs(JsonObject.class).forEach(s -> paged.add(s.getString("sessionId")));
            cursor = page.getString("nextCursor", null);
        } while (cursor != null && paged.size() <= expected.size());
        assertEquals(expected, paged);
        assertEquals(paged.size(), new HashSet<>(paged).size());
    }

    @Test
    void badSessionParametersAreRefusedWithTheirReason() {
        String admin = crowd.adminToken();
        Map<String, String> refused = Map.of(
                "protocolVersion=latest", "invalid_protocolVersion 'protocolVersion' must be a date such as 2025-11-25",
                "q=" + "x".repeat(201), "invalid_q 'q' must be at most 200 characters",
                "limit=501", "invalid_limit 'limit' must be between 1 and 500",
                "cursor=newest", "invalid_cursor 'cursor' must be a whole number",
                "state=asleep", "invalid_state 'state' must be one of [ended, open]");
        refused.forEach((query, expected) -> {
            Api.Reply reply = Api.get("/api/gateway/sessions?" + query, admin).expect(400);
            assertEquals(expected, reply.errorCode() + " " + reply.errorMessage(), query);
        });
    }

    private void assertSessions(String query, Predicate<CrowdedGateway.Session> expected) {
        List<String> wanted = crowd.sessions().stream().filter(expected).map(CrowdedGateway.Session::id).collect(Collectors.toList());
        Collections.reverse(wanted);
        JsonObject page = sessions(query + "&limit=500");
        assertEquals(wanted, page.getJsonArray("data").getValuesAs(JsonObject.class).stream().map(s -> s.getString("sessionId")).toList(),
                query);
        assertEquals(wanted.size(), page.getInt("total"), query);
        assertFalse(wanted.isEmpty(), () -> query + " matches some of the sessions opened");
    }

    /**
     * The page once every backend answered within the list timeout: on a busy machine a backend whose pooled
     * connection was just reaped may be left out of one answer (its {@code answered} is false), as on {@code /mcp}.
     */
    private static JsonObject tools(String query) {
        JsonObject page = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            page = Api.get("/api/gateway/tools?" + query, crowd.adminToken()).expect(200).json();
            if (page.getJsonArray("backends").getValuesAs(JsonObject.class).stream().allMatch(b -> b.getBoolean("answered"))) {
                return page;
            }
        }
        throw new AssertionError("a backend never answered: " + page.getJsonArray("backends"));
    }

    private static JsonObject sessions(String query) {
        return Api.get("/api/gateway/sessions?" + query, crowd.adminToken()).expect(200).json();
    }

    private static void policy(JsonObject tools) {
        JsonObject policy = Json.createObjectBuilder(tools).add("allowedNetworks", Json.createArrayBuilder().add("127.0.0.1")).build();
        Api.put("/api/tenants/" + crowd.tenant() + "/policy", Api.adminToken(), policy).expect(200);
    }

    private static List<JsonObject> data(JsonObject page) {
        return page.getJsonArray("data").getValuesAs(JsonObject.class);
    }

    private static List<String> names(List<JsonObject> tools) {
        return tools.stream().map(t -> t.getString("name")).toList();
    }

    private static String encoded(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** tools/list on /mcp across every page once every one of these backends answered (see {@link #tools}). */
    private static List<String> mcpToolNames(String token, List<String> backends) {
        List<String> names = List.of();
        for (int attempt = 0; attempt < 5; attempt++) {
            names = mcpToolNamesOnce(token);
            List<String> listed = names;
            if (backends.stream().allMatch(b -> listed.stream().anyMatch(n -> n.startsWith(b + "__")))) {
                return names;
            }
        }
        throw new AssertionError("a backend never answered tools/list: " + names);
    }

    /** tools/list on /mcp across every page, as an MCP client of the caller reads it; the session is ended after. */
    private static List<String> mcpToolNamesOnce(String token) {
        String session = McpHttp.newSession(token);
        try {
            List<String> names = new ArrayList<>();
            String cursor = null;
            for (int id = 2; id < 200; id++) {
                JsonObject params = cursor == null ? JsonObject.EMPTY_JSON_OBJECT : Json.createObjectBuilder().add("cursor", cursor).build();
                String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", "tools/list")
                        .add("params", params).build().toString();
                JsonObject result = McpHttp.response(McpHttp.inSession(token, session, body, "MCP-Protocol-Version", "2025-11-25"))
                        .getJsonObject("result");
                result.getJsonArray("tools").getValuesAs(JsonObject.class).forEach(t -> names.add(t.getString("name")));
                if (!(result.get("nextCursor") instanceof JsonString next)) {
                    return names;
                }
                cursor = next.getString();
            }
            throw new AssertionError("tools/list kept handing out cursors");
        } finally {
            McpHttp.endSession(token, session);
        }
    }
}
