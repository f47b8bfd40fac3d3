package dev.switchboard.it.registry;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An ordinary user aiming Switchboard at internal addresses (issue 15): refused with a clear error and no request
 * reaching the target; a redirect is not followed; an allowed server's error body never reaches the user. The users
 * here live in a tenant of their own, without the loopback allowance the default tenant has in the ITs (pom.xml).
 */
class UserServerAddressesIT {

    private static final String SECRET = "internal-secret-" + UUID.randomUUID();
    private static String platform;
    private static String tenant;
    private static String user;
    /** Answers every request with HTTP 500 and a body that must not reach users. */
    private static CountingListener secretKeeper;
    /** Redirects every request to {@link #target}. */
    private static CountingListener redirector;
    /** Stands for an internal service: must never be connected to. */
    private static CountingListener target;

    @BeforeAll
    static void setUp() throws IOException {
        Api.awaitReady();
        platform = Api.adminToken();
        tenant = "addresses-" + UUID.randomUUID().toString().substring(0, 8);
        Api.post("/api/tenants", platform, Json.createObjectBuilder().add("id", tenant).build()).expect(201);
        user = Api.newUser(tenant);
        target = new CountingListener(InetAddress.getByName("127.0.0.2"), "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
        secretKeeper = new CountingListener(InetAddress.getByName("127.0.0.1"), "HTTP/1.1 500 Internal Server Error\r\n"
                + "Content-Type: text/plain\r\nContent-Length: " + SECRET.length() + "\r\nConnection: close\r\n\r\n" + SECRET);
        redirector = new CountingListener(InetAddress.getByName("127.0.0.1"), "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:"
                + target.port() + "/mcp\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    }

    @AfterAll
    static void tearDown() throws IOException {
        for (CountingListener l : new CountingListener[]{target, secretKeeper, redirector}) {
            if (l != null) {
                l.close();
            }
        }
    }

    @Test
    void registeringAnInternalAddressIsRefusedAndNothingIsSent() {
        int port = target.port();
        int before = target.connections();
        assertRefused("http://127.0.0.2:" + port + "/mcp", "address not allowed: 127.0.0.2 is loopback; an admin can allow it for this tenant");
        assertRefused("http://127.0.0.1:3306/mcp", "address not allowed: 127.0.0.1 is loopback; an admin can allow it for this tenant");
        assertRefused("http://169.254.169.254/latest/meta-data/iam/security-credentials/",
                "address not allowed: 169.254.169.254 is link-local (the cloud metadata service); an admin can allow it for this tenant");
        int switchboardPort = URI.create(Api.BASE).getPort();
        String jwks = assertRefused("http://localhost:" + switchboardPort + "/api/auth/jwks", null);
        assertTrue(jwks.matches("address not allowed: localhost \\((127\\.0\\.0\\.1|0:0:0:0:0:0:0:1)\\) is loopback; "
                + "an admin can allow it for this tenant"), jwks);
        assertRefused("http://2130706434:" + port + "/mcp", "address not allowed: 2130706434 (127.0.0.2) is loopback; "
                + "an admin can allow it for this tenant");
        assertRefused("http://0177.0.0.2:" + port + "/mcp", "address not allowed: 0177.0.0.2 (127.0.0.2) is loopback; "
                + "an admin can allow it for this tenant");
        assertRefused("http://[::ffff:127.0.0.2]:" + port + "/mcp", "address not allowed: ::ffff:127.0.0.2 (127.0.0.2) is loopback; "
                + "an admin can allow it for this tenant");
        assertRefused("http://10.0.0.1/mcp", "address not allowed: 10.0.0.1 is private; an admin can allow it for this tenant");
        assertRefused("http://[fd00:ec2::254]/mcp", "address not allowed: fd00:ec2::254 (fd00:ec2:0:0:0:0:0:254) is private "
                + "(unique local); an admin can allow it for this tenant");
        assertEquals(before, target.connections(), "nothing was sent to the internal addresses");
    }

    @Test
    void connectingIsCheckedAgainAtEveryConnection() {
        // allowed when registered, then the admin takes the allowance back: the connection is refused before it is made
        allow("127.0.0.2");
        long id = register("http://127.0.0.2:" + target.port() + "/mcp").expect(201).json().getJsonNumber("id").longValue();
        allow();
        int before = target.connections();
        JsonObject error = Api.post("/api/mcp-servers/" + id + "/connect", user, "").expect(200).json().getJsonObject("error");
        assertEquals("address_denied", error.getString("kind"));
        assertEquals("address not allowed: 127.0.0.2 is loopback; an admin can allow it for this tenant", error.getString("message"));
        Api.Reply tools = Api.get("/api/mcp-servers/" + id + "/tools", user).expect(502);
        assertEquals("address_not_allowed", tools.errorCode());
        assertEquals("MCP server '" + name(id) + "' is not reachable: address not allowed: 127.0.0.2 is loopback; an admin can "
                + "allow it for this tenant", tools.errorMessage());
        assertEquals("address not allowed: 127.0.0.2 is loopback; an admin can allow it for this tenant",
                Api.get("/api/mcp-servers/" + id, user).json().getString("lastError"));
        assertEquals(before, target.connections(), "the refused connection was never opened");
    }

    @Test
    void aRedirectIsNotFollowed() {
        allow("127.0.0.1");
        long id = register("http://127.0.0.1:" + redirector.port() + "/mcp").expect(201).json().getJsonNumber("id").longValue();
        int before = target.connections();
        JsonObject error = Api.post("/api/mcp-servers/" + id + "/connect", user, "").expect(200).json().getJsonObject("error");
        assertEquals("http_status", error.getString("kind"));
        assertEquals(302, error.getInt("httpStatus"));
        assertEquals("the server answered HTTP 302", error.getString("message"));
        assertTrue(redirector.connections() > 0, "the allowed server was asked");
        assertEquals(before, target.connections(), "the redirect's target was not");
        allow();
    }

    @Test
    void anErrorBodyReachesAdminsAndTheLogButNeverTheUser() throws IOException {
        allow("127.0.0.1");
        String url = "http://127.0.0.1:" + secretKeeper.port() + "/mcp";
        long id = register(url).expect(201).json().getJsonNumber("id").longValue();
        String answer = Api.post("/api/mcp-servers/" + id + "/connect", user, "").expect(200).text();
        JsonObject error = Json.createReader(new java.io.StringReader(answer)).readObject().getJsonObject("error");
        assertEquals("http_status", error.getString("kind"));
        assertEquals(500, error.getInt("httpStatus"));
        assertEquals("the server answered HTTP 500", error.getString("message"));
        assertFalse(answer.contains(SECRET), answer);
        Api.Reply tools = Api.get("/api/mcp-servers/" + id + "/tools", user).expect(502);
        assertFalse(tools.text().contains(SECRET), tools.text());
        assertEquals("MCP server '" + name(id) + "' is not reachable: the server answered HTTP 500", tools.errorMessage());
        String status = Api.get("/api/mcp-servers/" + id, user).text();
        assertFalse(status.contains(SECRET), status);
        assertTrue(status.contains("\"lastError\":\"the server answered HTTP 500\""), status);
        allow();

        // a platform admin's own server at the same address: the admin sees what the server said
        long adminId = Api.post("/api/mcp-servers", platform, Json.createObjectBuilder().add("name", "secret-" + id)
                .add("baseUrl", url).build()).expect(201).json().getJsonNumber("id").longValue();
        JsonObject adminError = Api.post("/api/mcp-servers/" + adminId + "/connect", platform, "").expect(200).json().getJsonObject("error");
        assertTrue(adminError.getString("message").contains(SECRET), adminError.toString());
        Api.delete("/api/mcp-servers/" + adminId, platform).expect(204);
        assertTrue(Files.readString(Path.of(System.getProperty("it.server.log"))).contains(SECRET), "the log has it");
    }

    @Test
    void theAllowlistIsPartOfTheTenantPolicyAndValidated() {
        JsonObject policy = Api.put("/api/tenants/" + tenant + "/policy", platform, Json.createObjectBuilder()
                .add("allowedNetworks", Json.createArrayBuilder().add("10.20.0.0/16").add("MCP.Internal.Example").add("fd00::/8"))
                .build()).expect(200).json().getJsonObject("policy");
        assertEquals(Json.createArrayBuilder().add("10.20.0.0/16").add("mcp.internal.example").add("fd00::/8").build(),
                policy.getJsonArray("allowedNetworks"));
        Api.Reply bad = Api.put("/api/tenants/" + tenant + "/policy", platform, Json.createObjectBuilder()
                .add("allowedNetworks", Json.createArrayBuilder().add("2130706433")).build()).expect(400);
        assertEquals("invalid_allowed_networks", bad.errorCode());
        assertEquals("allowedNetworks: '2130706433' is neither a network (10.0.0.0/8, fd00::/8), an address in plain notation "
                + "(10.1.2.3, ::1) nor a host name", bad.errorMessage());
        assertEquals(403, Api.put("/api/tenants/" + tenant + "/policy", user, Json.createObjectBuilder()
                .add("allowedNetworks", Json.createArrayBuilder().add("127.0.0.1")).build()).status(), "users cannot allow anything");
        allow();
    }

    private static String assertRefused(String url, String message) {
        Api.Reply reply = register(url).expect(400);
        assertEquals("address_not_allowed", reply.errorCode(), url);
        if (message != null) {
            assertEquals(message, reply.errorMessage(), url);
        }
        return reply.errorMessage();
    }

    private static Api.Reply register(String url) {
        return Api.post("/api/mcp-servers", user, Json.createObjectBuilder()
                .add("name", "internal-" + UUID.randomUUID().toString().substring(0, 8)).add("baseUrl", url).build());
    }

    private static String name(long id) {
        return Api.get("/api/mcp-servers/" + id, user).json().getString("name");
    }

    /** Replaces the tenant's allowlist (nothing else is in its policy). */
    private static void allow(String... entries) {
        var list = Json.createArrayBuilder();
        for (String e : entries) {
            list.add(e);
        }
        Api.put("/api/tenants/" + tenant + "/policy", platform, Json.createObjectBuilder().add("allowedNetworks", list).build())
                .expect(200);
    }

    /** A plain TCP listener that counts connections and answers each with one fixed HTTP response. */
    private static final class CountingListener implements AutoCloseable {

        private final ServerSocket socket;
        private final AtomicInteger connections = new AtomicInteger();

        CountingListener(InetAddress address, String response) throws IOException {
            socket = new ServerSocket(0, 50, address);
            Thread accept = new Thread(() -> {
                while (!socket.isClosed()) {
                    try (Socket s = socket.accept()) {
                        connections.incrementAndGet();
                        s.setSoTimeout(2000);
                        InputStream in = s.getInputStream();
                        byte[] buffer = new byte[8192];
                        in.read(buffer);
                        OutputStream out = s.getOutputStream();
                        out.write(response.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    } catch (IOException e) {
                        // closed, or a client that went away: keep listening until closed
                    }
                }
            }, "counting-listener-" + socket.getLocalPort());
            accept.setDaemon(true);
            accept.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        int connections() {
            return connections.get();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
