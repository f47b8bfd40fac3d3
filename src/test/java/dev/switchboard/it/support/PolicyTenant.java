package dev.switchboard.it.support;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.UUID;

/**
 * A tenant of its own for the tests of a class, with an admin and a user, and a real stdio MCP server the tenant
 * admin shares there: {@code src/test/node/policy-server.mjs} (official SDK), which writes the token of every call it
 * receives to a file, so "the backend was not called" is counted, not assumed. Its tools: {@code count},
 * {@code fail_once}, {@code hidden}; a prompt {@code greeting}; a resource {@code note://one}. Use with
 * {@code @RegisterExtension static final PolicyTenant tenant = new PolicyTenant("label", "backendLabel")}.
 */
public final class PolicyTenant implements BeforeAllCallback, AfterAllCallback {

    private final String label;
    private final String backendLabel;
    private final String[] autoApprove;
    private String id;
    private String userToken;
    private String backend;
    private long serverId;
    private Path state;

    /** The tenant is {@code label-{random}}, the server {@code backendLabel{random}}, with these tools auto-approved in chat. */
    public PolicyTenant(String label, String backendLabel, String... autoApprove) {
        this.label = label;
        this.backendLabel = backendLabel;
        this.autoApprove = autoApprove;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        Api.awaitReady();
        String admin = Api.adminToken();
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        id = label + "-" + suffix;
        Api.post("/api/tenants", admin, Json.createObjectBuilder().add("id", id).add("name", "IT " + label).build()).expect(201);
        String tenantAdmin = label + "-admin-" + suffix;
        Api.post("/api/users", admin, Json.createObjectBuilder().add("username", tenantAdmin).add("password", "password-" + suffix)
                .add("role", "admin").add("tenant", id).build()).expect(201);
        userToken = Api.newUser(id);

        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
        Path script = nodeDir.resolve("policy-server.mjs");
        Files.copy(Paths.get("src/test/node/policy-server.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        state = Files.createTempFile(label + "-policy-server", ".calls");
        backend = backendLabel + suffix;
        JsonObjectBuilder server = Json.createObjectBuilder().add("name", backend).add("command", "node")
                .add("args", Json.createArrayBuilder().add(script.toString()).add(state.toString())).add("scope", "shared");
        if (autoApprove.length > 0) {
            server.add("autoApproveTools", Json.createArrayBuilder(List.of(autoApprove)));
        }
        serverId = Servers.register(Api.login(tenantAdmin, "password-" + suffix), server.build());
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (state != null) {
            Files.deleteIfExists(state);
        }
    }

    /** The tenant's id. */
    public String id() {
        return id;
    }

    /** A user of the tenant. */
    public String userToken() {
        return userToken;
    }

    /** The recording server's name: the prefix of its tools on /mcp, the {name} of /mcp/servers/{name}. */
    public String backend() {
        return backend;
    }

    /** The recording server's id. */
    public long serverId() {
        return serverId;
    }

    /** Sets the tenant's policy, written with ' for " so it reads in a test. */
    public void policy(String json) {
        try (var reader = Json.createReader(new StringReader(json.replace('\'', '"')))) {
            JsonObject policy = reader.readObject();
            Api.put("/api/tenants/" + id + "/policy", Api.adminToken(), policy).expect(200);
        }
    }

    /** How often the backend really received a call with this token. */
    public long calls(String token) {
        try {
            return Files.readAllLines(state).stream().filter(token::equals).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tenant's audit events of that tool and decision, once at least {@code count} landed. */
    public JsonArray awaitAuditEvents(String tool, String decision, int count) {
        return Api.awaitAuditEvents(id, tool, decision, count);
    }
}
