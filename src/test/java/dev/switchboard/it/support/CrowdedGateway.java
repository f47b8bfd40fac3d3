package dev.switchboard.it.support;

import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A tenant of its own whose gateway is crowded, as an installation with many backends is: one Streamable HTTP
 * server-everything shared there {@value #BACKENDS} times under different names (over 80 tools on {@code /mcp}), and
 * {@value #SESSIONS} recorded client sessions of three users with three client names and three protocol versions, a
 * third of them ended. Its own tenant, so nothing another test shares in the default tenant changes its counts. The
 * tenant's policy lets its servers reach the loopback address the backend listens on. Use with
 * {@code @RegisterExtension static final CrowdedGateway crowd = new CrowdedGateway("label")}.
 */
public final class CrowdedGateway implements BeforeAllCallback, AfterAllCallback {

    public static final int BACKENDS = 7;
    public static final int SESSIONS = 30;
    public static final List<String> CLIENTS = List.of("alpha-desktop", "beta-ide", "gamma-agent");
    public static final List<String> VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26");

    /** One recorded session as it was opened. */
    public record Session(String id, String user, String client, String version, boolean ended) {
    }

    private final String label;
    private ServerEverything backend;
    private String tenant;
    private String admin;
    private String adminToken;
    private final List<String> users = new ArrayList<>();
    private final List<String> backends = new ArrayList<>();
    private final List<Session> sessions = new ArrayList<>();

    /** The tenant is {@code label-{random}}, its backends {@code label-{random}-{n}}. */
    public CrowdedGateway(String label) {
        this.label = label;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Api.awaitReady();
        String platformAdmin = Api.adminToken();
        tenant = Names.unique(label);
        Api.post("/api/tenants", platformAdmin, Json.createObjectBuilder().add("id", tenant).build()).expect(201);
        Api.put("/api/tenants/" + tenant + "/policy", platformAdmin, Json.createObjectBuilder()
                .add("allowedNetworks", Json.createArrayBuilder().add("127.0.0.1")).build()).expect(200);
        admin = tenant + "-admin";
        Api.post("/api/users", platformAdmin, Json.createObjectBuilder().add("username", admin).add("password", password(admin))
                .add("role", "admin").add("tenant", tenant).build()).expect(201);
        adminToken = Api.login(admin, password(admin));
        users.add(admin);
        for (int i = 1; i <= 2; i++) {
            String user = tenant + "-user" + i;
            Api.post("/api/users", platformAdmin, Json.createObjectBuilder().add("username", user).add("password", password(user))
                    .add("role", "user").add("tenant", tenant).build()).expect(201);
            users.add(user);
        }

        backend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        for (int i = 1; i <= BACKENDS; i++) {
            String name = tenant + "-" + i;
            Servers.register(adminToken, Json.createObjectBuilder().add("name", name).add("baseUrl", backend.url())
                    .add("scope", "shared").build());
            backends.add(name);
        }

        List<String> tokens = users.stream().map(user -> user.equals(admin) ? adminToken : Api.login(user, password(user))).toList();
        for (int i = 0; i < SESSIONS; i++) {
            int who = i % users.size();
            String client = CLIENTS.get(i / 3 % CLIENTS.size());
            String version = VERSIONS.get(i / 2 % VERSIONS.size());
            String id = McpHttp.openSession(tokens.get(who), client, version);
            boolean ended = i % 3 == 2;
            if (ended) {
                assertEquals(200, McpHttp.endSession(tokens.get(who), id), "session " + i + " ended");
            }
            sessions.add(new Session(id, users.get(who), client, version, ended));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (backend == null) {
            return;
        }
        try {
            for (JsonObject server : Api.get("/api/mcp-servers", adminToken).expect(200).json().getJsonArray("data")
                    .getValuesAs(JsonObject.class)) {
                if (backends.contains(server.getString("name"))) {
                    Api.delete("/api/mcp-servers/" + server.getJsonNumber("id"), adminToken).expect(204);
                }
            }
        } finally {
            backend.close();
        }
    }

    /** Every user of the tenant has the password {@code password-} and their name. */
    public static String password(String user) {
        return "password-" + user;
    }

    public String tenant() {
        return tenant;
    }

    /** The tenant's admin, who registered and shares the backends. */
    public String admin() {
        return admin;
    }

    public String adminToken() {
        return adminToken;
    }

    /** The backends' names as registered, which are also their gateway names. */
    public List<String> backends() {
        return List.copyOf(backends);
    }

    /** The sessions in the order they were opened (oldest first). */
    public List<Session> sessions() {
        return List.copyOf(sessions);
    }
}
