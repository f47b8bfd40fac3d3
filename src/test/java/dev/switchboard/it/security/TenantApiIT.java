package dev.switchboard.it.security;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** /api/tenants: who may do what (platform admin, tenant admin, user, other tenant) and every kind of bad input. */
class TenantApiIT {

    static String platform;
    static String suffix;

    @BeforeAll
    static void setUp() {
        Api.awaitReady();
        platform = Api.adminToken();
        suffix = UUID.randomUUID().toString().substring(0, 6);
    }

    static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text.replace('\'', '"')))) {
            return reader.readObject();
        }
    }

    static String tenantAdmin(String tenant) {
        String name = "tadmin-" + UUID.randomUUID().toString().substring(0, 8);
        Api.post("/api/users", platform, Json.createObjectBuilder().add("username", name).add("password", "password-" + name)
                .add("role", "admin").add("tenant", tenant).build()).expect(201);
        return Api.login(name, "password-" + name);
    }

    @Test
    void aPlatformAdminCreatesReadsChangesAndDeletesTenantsAndTheirPolicies() {
        String id = "crud-" + suffix;
        JsonObject created = Api.post("/api/tenants", platform, json("{'id':'" + id + "','name':'Acme','policy':{'tools':['files__*'],"
                + "'rateLimit':{'requests':10,'per':'second','burst':20}}}")).expect(201).json();
        assertEquals("Acme", created.getString("name"));
        assertEquals(json("{'tools':['files__*'],'resourceBackends':null,'rateLimit':{'requests':10,'per':'second','burst':20,"
                + "'perSubject':false},'toolRules':[],'allowedNetworks':[]}"), created.getJsonObject("policy"));

        JsonObject renamed = Api.put("/api/tenants/" + id, platform, json("{'name':'Acme Corp'}")).expect(200).json();
        assertEquals("Acme Corp", renamed.getString("name"));
        assertEquals(created.getJsonObject("policy"), renamed.getJsonObject("policy"), "fields left out stay");

        JsonObject bound = Api.put("/api/tenants/" + id + "/policy", platform, json("{'resourceBackends':['files'],"
                + "'toolRules':[{'tool':'files__read','retryAllowed':true,'risk':'low'}]}")).expect(200).json();
        assertEquals(json("{'tools':null,'resourceBackends':['files'],'rateLimit':null,'toolRules':[{'tool':'files__read',"
                + "'retryAllowed':true,'risk':'low'}],'allowedNetworks':[]}"), bound.getJsonObject("policy"));
        assertTrue(Api.delete("/api/tenants/" + id + "/policy", platform).expect(200).json().isNull("policy"));

        assertEquals(id, Api.get("/api/tenants/" + id, platform).expect(200).json().getString("id"));
        Api.delete("/api/tenants/" + id, platform).expect(204);
        assertEquals("not_found", Api.get("/api/tenants/" + id, platform).expect(404).errorCode());
    }

    @Test
    void theListPages() {
        for (int i = 0; i < 3; i++) {
            Api.post("/api/tenants", platform, json("{'id':'page" + i + "-" + suffix + "'}")).expect(201);
        }
        JsonObject page = Api.get("/api/tenants?limit=2", platform).expect(200).json();
        assertEquals(2, page.getJsonArray("data").size());
        assertTrue(page.getInt("total") >= 3);
        JsonObject next = Api.get("/api/tenants?limit=2&offset=2", platform).expect(200).json();
        assertEquals(2, next.getInt("offset"));
        assertEquals("invalid_limit", Api.get("/api/tenants?limit=0", platform).expect(400).errorCode());
        assertEquals("invalid_offset", Api.get("/api/tenants?offset=-1", platform).expect(400).errorCode());
    }

    @Test
    void badInputIsRefusedWithAStableCodeAndChangesNothing() {
        String id = "bad-" + suffix;
        assertEquals("invalid_tenant_id", Api.post("/api/tenants", platform, json("{'id':'no spaces'}")).expect(400).errorCode());
        assertEquals("missing_field", Api.post("/api/tenants", platform, json("{'name':'x'}")).expect(400).errorCode());
        assertEquals("unknown_field", Api.post("/api/tenants", platform, json("{'id':'" + id + "','color':'red'}")).expect(400).errorCode());
        JsonObject badPattern = Api.post("/api/tenants", platform, json("{'id':'" + id + "','policy':{'tools':['files']}}")).expect(400).json();
        assertEquals("invalid_tool_pattern", badPattern.getJsonObject("error").getString("code"));
        assertEquals("'files' is not a tool pattern: use backend__tool, backend__* or *",
                badPattern.getJsonObject("error").getString("message"));
        assertEquals("invalid_rate_limit", Api.post("/api/tenants", platform, json("{'id':'" + id
                + "','policy':{'rateLimit':{'requests':5,'per':'hour'}}}")).expect(400).errorCode());
        assertEquals("invalid_rate_limit", Api.post("/api/tenants", platform, json("{'id':'" + id
                + "','policy':{'rateLimit':{'requests':0,'per':'second'}}}")).expect(400).errorCode());
        assertEquals("invalid_tool_rule", Api.post("/api/tenants", platform, json("{'id':'" + id
                + "','policy':{'toolRules':[{'tool':'a__b','risk':'none'}]}}")).expect(400).errorCode());
        assertEquals("unknown_field", Api.post("/api/tenants", platform, json("{'id':'" + id
                + "','policy':{'allow':[]}}")).expect(400).errorCode());
        Api.get("/api/tenants/" + id, platform).expect(404);

        Api.post("/api/tenants", platform, json("{'id':'" + id + "','policy':{'tools':['a__*']}}")).expect(201);
        assertEquals("tenant_exists", Api.post("/api/tenants", platform, json("{'id':'" + id + "'}")).expect(409).errorCode());
        assertEquals("invalid_backend_name", Api.put("/api/tenants/" + id + "/policy", platform,
                json("{'resourceBackends':['a/b']}")).expect(400).errorCode());
        assertEquals("id_immutable", Api.put("/api/tenants/" + id, platform, json("{'id':'other'}")).expect(400).errorCode());
        assertEquals(json("{'tools':['a__*'],'resourceBackends':null,'rateLimit':null,'toolRules':[],'allowedNetworks':[]}"),
                Api.get("/api/tenants/" + id, platform).expect(200).json().getJsonObject("policy"), "nothing changed");
    }

    @Test
    void aTenantAdminReadsItsOwnTenantOnlyAndChangesNothing() {
        String own = "own-" + suffix;
        String other = "other-" + suffix;
        Api.post("/api/tenants", platform, json("{'id':'" + own + "','policy':{'tools':['x__*']}}")).expect(201);
        Api.post("/api/tenants", platform, json("{'id':'" + other + "'}")).expect(201);
        String admin = tenantAdmin(own);

        JsonObject list = Api.get("/api/tenants", admin).expect(200).json();
        assertEquals(1, list.getJsonArray("data").size());
        assertEquals(own, list.getJsonArray("data").getJsonObject(0).getString("id"));
        assertEquals(json("{'tools':['x__*'],'resourceBackends':null,'rateLimit':null,'toolRules':[],'allowedNetworks':[]}"),
                Api.get("/api/tenants/" + own, admin).expect(200).json().getJsonObject("policy"));
        Api.get("/api/tenants/" + other, admin).expect(404);

        assertEquals("tenant_forbidden", Api.put("/api/tenants/" + own + "/policy", admin, json("{}")).expect(403).errorCode());
        assertEquals("tenant_forbidden", Api.put("/api/tenants/" + own, admin, json("{'name':'mine'}")).expect(403).errorCode());
        assertEquals("tenant_forbidden", Api.post("/api/tenants", admin, json("{'id':'new-" + suffix + "'}")).expect(403).errorCode());
        assertEquals("tenant_forbidden", Api.delete("/api/tenants/" + own, admin).expect(403).errorCode());
        Api.delete("/api/tenants/" + other, admin).expect(404);
        Api.get("/api/tenants/" + other, platform).expect(200);
    }

    @Test
    void usersHaveNoAccess() {
        String user = Api.newUser("default");
        Api.get("/api/tenants", user).expect(403);
        Api.post("/api/tenants", user, json("{'id':'user-" + suffix + "'}")).expect(403);
    }

    @Test
    void aTenantWithUsersCannotBeDeleted() {
        String id = "inuse-" + suffix;
        Api.post("/api/tenants", platform, json("{'id':'" + id + "'}")).expect(201);
        Api.newUser(id);
        JsonObject refused = Api.delete("/api/tenants/" + id, platform).expect(409).json();
        assertEquals("tenant_in_use", refused.getJsonObject("error").getString("code"));
        assertEquals("Tenant " + id + " still has 1 user(s) and 0 MCP server(s); delete them first, its policy applies to them",
                refused.getJsonObject("error").getString("message"));
    }
}
