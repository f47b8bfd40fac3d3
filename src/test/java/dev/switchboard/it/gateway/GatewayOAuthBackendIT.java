package dev.switchboard.it.gateway;

import com.sun.net.httpserver.HttpServer;
import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.Servers;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A registered server that requires OAuth (it answers 401 naming its protected resource metadata, as the MCP
 * authorization specification has servers do): calls through the gateway fail with a typed error,
 * {@code data.reason: "authorization_required"}, in words a user can act on and without the server's own answer;
 * an admin also sees where the server's metadata is.
 */
class GatewayOAuthBackendIT {

    static HttpServer server;
    static String metadata;
    static String name;
    static long id;

    @BeforeAll
    static void start() throws Exception {
        Api.awaitReady();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        metadata = "http://127.0.0.1:" + server.getAddress().getPort() + "/.well-known/oauth-protected-resource/mcp";
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"it\", resource_metadata=\"" + metadata + "\", scope=\"files:read\"");
            byte[] body = "{\"error\":\"invalid_token\",\"secret\":\"internal detail\"}".getBytes();
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        name = Names.unique(Servers.GATEWAY_PREFIX + "oauth");
        id = Servers.register(Api.adminToken(), Json.createObjectBuilder().add("name", name)
                .add("baseUrl", "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp").add("scope", "shared").build());
    }

    @AfterAll
    static void stop() {
        Api.delete("/api/mcp-servers/" + id, Api.adminToken()).expect(204);
        server.stop(0);
    }

    @Test
    void callsFailWithATypedErrorThatSaysTheServerWantsAnOAuthSignIn() {
        JsonObject error = new StatelessPeer("/mcp/servers/" + name, Api.newUser("default")).request("tools/list", Json.createObjectBuilder()).error();
        assertEquals(-31030, error.getInt("code"), error::toString);
        assertEquals("authorization_required", error.getJsonObject("data").getString("reason"), error::toString);
        assertEquals(name, error.getJsonObject("data").getString("backend"));
        assertTrue(error.getString("message").contains("requires an OAuth sign-in"), error::toString);
        assertFalse(error.toString().contains("internal detail") || error.toString().contains(metadata),
                () -> "a user sees neither the server's answer nor its addresses: " + error);

        JsonObject asAdmin = new StatelessPeer("/mcp/servers/" + name, Api.adminToken()).request("tools/list", Json.createObjectBuilder()).error();
        assertEquals("authorization_required", asAdmin.getJsonObject("data").getString("reason"));
        assertTrue(asAdmin.getString("message").contains(metadata), asAdmin::toString);
    }
}
