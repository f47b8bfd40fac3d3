package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.Servers;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code subscriptions/listen} of MCP 2026-07-28 on {@code /mcp}: a stateless client opts in to tool list changes,
 * is acknowledged with the kinds the gateway agreed to (not resource subscriptions), and is told when a real backend
 * ({@code src/test/node/changing-server.mjs}, SDK 1.x over stdio) adds a tool; a stream that did not opt in to tool
 * changes is not told.
 */
class GatewayListenIT {

    static String token;
    static String server;
    static long serverId;

    @BeforeAll
    static void register() throws Exception {
        Api.awaitReady();
        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
        Path script = nodeDir.resolve("changing-server.mjs");
        Files.copy(Paths.get("src/test/node/changing-server.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        server = Names.unique(Servers.GATEWAY_PREFIX + "changing");
        serverId = Servers.register(Api.adminToken(), Json.createObjectBuilder().add("name", server).add("command", "node")
                .add("args", Json.createArrayBuilder().add(script.toString())).add("scope", "shared").build());
        token = Api.newUser("default");
    }

    @AfterAll
    static void remove() {
        Api.delete("/api/mcp-servers/" + serverId, Api.adminToken()).expect(204);
    }

    /** An open listen stream whose messages arrive in a queue, read on a thread of its own. */
    private static BlockingQueue<JsonObject> listen(int id, JsonObject notifications) throws Exception {
        JsonObject body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", "subscriptions/listen")
                .add("params", Json.createObjectBuilder().add("notifications", notifications)
                        .add("_meta", StatelessPeer.meta(JsonValue.EMPTY_JSON_OBJECT))).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Api.BASE + "/mcp"))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).header("Authorization", "Bearer " + token)
                .header("Accept", McpHttp.BOTH).header("Content-Type", "application/json");
        StatelessPeer.headersFor(body).forEach(request::header);
        HttpResponse<InputStream> response = McpHttp.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        BlockingQueue<JsonObject> messages = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith("data:") && !line.substring(5).isBlank()) {
                        try (var json = Json.createReader(new StringReader(line.substring(5).strip()))) {
                            messages.add(json.readObject());
                        }
                    }
                }
            } catch (Exception e) {
                // the test ends the stream by leaving
            }
        });
        reader.setDaemon(true);
        reader.start();
        return messages;
    }

    @Test
    void aStreamOptedInToToolChangesIsToldWhenABackendAddsATool() throws Exception {
        StatelessPeer peer = new StatelessPeer("/mcp", token);
        // the caller's pooled session with the backend, which announces the change
        assertTrue(peer.request("tools/list", Json.createObjectBuilder()).response().toString().contains(server + "__add_tool"));

        BlockingQueue<JsonObject> tools = listen(41, Json.createObjectBuilder().add("toolsListChanged", true)
                .add("resourceSubscriptions", Json.createArrayBuilder().add("switchboard://x/y")).build());
        JsonObject ack = tools.poll(30, TimeUnit.SECONDS);
        assertNotNull(ack, "acknowledged");
        assertEquals("notifications/subscriptions/acknowledged", ack.getString("method"), ack::toString);
        assertEquals(Json.createObjectBuilder().add("toolsListChanged", true).build(), ack.getJsonObject("params").getJsonObject("notifications"),
                "resource subscriptions are not agreed to");
        assertEquals(41, ack.getJsonObject("params").getJsonObject("_meta").getInt("io.modelcontextprotocol/subscriptionId"));
        BlockingQueue<JsonObject> prompts = listen(42, Json.createObjectBuilder().add("promptsListChanged", true).build());
        assertEquals("notifications/subscriptions/acknowledged", prompts.poll(30, TimeUnit.SECONDS).getString("method"));

        String fresh = "fresh_" + Long.toString(System.nanoTime(), 36);
        JsonObject added = peer.request("tools/call", Json.createObjectBuilder().add("name", server + "__add_tool")
                .add("arguments", Json.createObjectBuilder().add("name", fresh))).response();
        assertTrue(added.toString().contains("added " + fresh), added::toString);

        JsonObject changed = tools.poll(30, TimeUnit.SECONDS);
        assertNotNull(changed, "the tool list change reached the stream");
        assertEquals("notifications/tools/list_changed", changed.getString("method"), changed::toString);
        assertEquals(41, changed.getJsonObject("params").getJsonObject("_meta").getInt("io.modelcontextprotocol/subscriptionId"));
        assertTrue(peer.request("tools/list", Json.createObjectBuilder()).response().toString().contains(server + "__" + fresh),
                "and the list has the new tool");
        assertNull(prompts.poll(2, TimeUnit.SECONDS), "a stream that did not opt in to tool changes is not told");
        assertEquals(java.util.List.of(), peer.schemaProblems());
    }

    @Test
    void aListenWithoutNotificationsIsRefused() {
        StatelessPeer peer = new StatelessPeer("/mcp", token);
        JsonObject error = peer.request("subscriptions/listen", Json.createObjectBuilder()).error();
        assertEquals(-32602, error.getInt("code"));
        assertTrue(error.getString("message").contains("params.notifications is required"), error::toString);
    }
}
