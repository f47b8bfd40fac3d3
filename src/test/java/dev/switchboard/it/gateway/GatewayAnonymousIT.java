package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.TestServer;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Anonymous MCP switched on (the server restarted with {@code SWITCHBOARD_GATEWAY_ANONYMOUS=true}, then restarted
 * without it): tokenless loopback callers use /mcp over HTTP and WebSocket, a bad token is still refused, the REST
 * API is untouched, and the start says so in a WARNING. Off (the default) is {@code GatewayIdentityIT}.
 */
class GatewayAnonymousIT {

    static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

    @Test
    void switchedOnATokenlessLocalCallerIsServedAsTheAnonymousPrincipal() throws Exception {
        Api.awaitReady();
        TestServer.restart(Map.of("SWITCHBOARD_GATEWAY_ANONYMOUS", "true"));
        try {
            String init = McpHttp.initializeBody("2025-11-25");
            HttpResponse<String> opened = McpHttp.withoutToken("POST", "/mcp", init);
            assertEquals(200, opened.statusCode(), opened::body);
            String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
            HttpResponse<String> listed = McpHttp.send("POST", LIST, "Accept", McpHttp.BOTH,
                    "Content-Type", "application/json", "Mcp-Session-Id", session);
            assertTrue(McpHttp.json(listed).containsKey("result"), listed::body);

            assertEquals(401, McpHttp.initialize("not-a-token", null).statusCode(), "a bad token is never anonymous");
            assertEquals(401, Api.get("/api/mcp-servers", null).status(), "the REST API knows no anonymous caller");

            JsonObject socket = GatewayClient.socketRaw("", LIST);
            assertTrue(socket.getJsonArray("answers").getJsonObject(0).containsKey("result"), socket::toString);

            String log = Files.readString(Path.of(System.getProperty("it.server.log")));
            // messages.log is JSON, one record per line
            assertTrue(log.lines().anyMatch(line -> line.contains("\"loglevel\":\"WARNING\"")
                    && line.contains("\"message\":\"ANONYMOUS MCP ACCESS IS ON")), "a WARNING at start");
        } finally {
            TestServer.restart(Map.of());
        }
        assertEquals(401, McpHttp.withoutToken("POST", "/mcp", McpHttp.initializeBody("2025-11-25")).statusCode(),
                "off again after a restart without the setting");
    }
}
