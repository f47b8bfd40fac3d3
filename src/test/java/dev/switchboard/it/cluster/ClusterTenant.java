package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

import static dev.switchboard.it.cluster.ClusterMembers.A;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A tenant of the cluster with a user and the recording stdio server {@code policy-server.mjs} shared there: each
 * member runs its own child process of it, and both append every call's token to one file, so calls are counted
 * across the members. Made through member A.
 */
final class ClusterTenant {

    final String id;
    final String backend;
    final String userToken;
    private final String adminToken;
    private final Path calls;

    private ClusterTenant(String id, String backend, String userToken, String adminToken, Path calls) {
        this.id = id;
        this.backend = backend;
        this.userToken = userToken;
        this.adminToken = adminToken;
        this.calls = calls;
    }

    /** A new tenant {@code label-<random>} with its policy, set before any member has read it. */
    static ClusterTenant create(String label, String policy) throws IOException {
        String admin = A.login("admin", Api.ADMIN_PASSWORD);
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        String id = label + "-" + suffix;
        A.post("/api/tenants", admin, Json.createObjectBuilder().add("id", id).add("name", "cluster IT").build()).expect(201);
        try (var reader = Json.createReader(new StringReader(policy.replace('\'', '"')))) {
            A.put("/api/tenants/" + id + "/policy", admin, reader.readObject()).expect(200);
        }
        String tenantAdmin = createUser(admin, id, "admin", label + "-admin-" + suffix);
        String user = createUser(admin, id, "user", label + "-user-" + suffix);

        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
        Path script = nodeDir.resolve("policy-server.mjs");
        Files.copy(Paths.get("src/test/node/policy-server.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        Path calls = Files.createTempFile(label + "-cluster", ".calls");
        String backend = "count" + suffix;
        String adminToken = A.login(tenantAdmin, "password-" + tenantAdmin);
        shareStdio(adminToken, backend, "node", script.toString(), calls.toString());
        return new ClusterTenant(id, backend, A.login(user, "password-" + user), adminToken, calls);
    }

    /** Shares one more stdio server in the tenant (every member runs its own process of it); its gateway name. */
    String share(String label, String command, String... args) {
        String name = label + UUID.randomUUID().toString().substring(0, 6);
        shareStdio(adminToken, name, command, args);
        return name;
    }

    private static void shareStdio(String adminToken, String name, String command, String... args) {
        var arguments = Json.createArrayBuilder();
        for (String arg : args) {
            arguments.add(arg);
        }
        A.post("/api/mcp-servers", adminToken, Json.createObjectBuilder().add("name", name).add("command", command)
                .add("scope", "shared").add("args", arguments).build()).expect(201);
    }

    private static String createUser(String admin, String tenant, String role, String name) {
        A.post("/api/users", admin, Json.createObjectBuilder().add("username", name).add("password", "password-" + name)
                .add("role", role).add("tenant", tenant).build()).expect(201);
        return name;
    }

    /** How often the backend really ran a call with this token, on any member. */
    long calls(String token) {
        try {
            return Files.readAllLines(calls).stream().filter(token::equals).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new {@code /mcp} session of the user, opened on {@code member}; any member takes it up. */
    String openSession(ClusterMembers.Member member) {
        HttpResponse<String> init = McpHttp.sendTo(member.base(), "POST", McpHttp.initializeBody("2025-11-25"),
                "Authorization", "Bearer " + userToken, "Accept", McpHttp.BOTH, "Content-Type", "application/json");
        assertEquals(200, init.statusCode(), init::body);
        return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    /** {@code count} of the tenant's backend through {@code member}, with an idempotency key when not null. */
    JsonObject count(ClusterMembers.Member member, String session, String token, int delayMillis, String idempotencyKey) {
        JsonObjectBuilder params = Json.createObjectBuilder().add("name", backend + "__count")
                .add("arguments", Json.createObjectBuilder().add("token", token).add("delay_ms", delayMillis));
        if (idempotencyKey != null) {
            params.add("_meta", Json.createObjectBuilder().add("idempotencyKey", idempotencyKey));
        }
        return rpc(member, session, "tools/call", params.build());
    }

    /**
     * {@code tools/list} through {@code member}: no permit taken, but the member reads the session, the tenant's policy
     * and the backend's tools, so the calls that follow spend no time on first reads.
     */
    JsonObject listTools(ClusterMembers.Member member, String session) {
        return rpc(member, session, "tools/list", Json.createObjectBuilder().build());
    }

    private JsonObject rpc(ClusterMembers.Member member, String session, String method, JsonObject params) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 7).add("method", method)
                .add("params", params).build().toString();
        HttpResponse<String> reply = McpHttp.sendTo(member.base(), "POST", body, "Authorization", "Bearer " + userToken,
                "Accept", McpHttp.BOTH, "Content-Type", "application/json", "Mcp-Session-Id", session,
                "MCP-Protocol-Version", "2025-11-25");
        assertEquals(200, reply.statusCode(), () -> member + ": " + reply.body());
        return McpHttp.response(reply);
    }

    /** The text of a {@code count} result, e.g. {@code call 1}. */
    static String text(JsonObject response) {
        return response.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text");
    }
}
