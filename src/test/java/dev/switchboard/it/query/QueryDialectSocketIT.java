package dev.switchboard.it.query;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.it.support.ServerDatabase;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.switchboard.it.query.QueryTcpClient.code;
import static dev.switchboard.it.query.QueryTcpClient.params;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 000's dialect over {@code ws://host/mcp}, the seed's own address, beside MCP JSON-RPC on the same endpoint:
 * negotiation, in-band authentication, a query, errors (including -32002 with {@code timeout} and {@code elapsed}
 * from a statement the server stops), {@code session.expired} pushed to the socket, and the connection limit shared
 * with the TCP transport (the IT server allows {@value #MAX_CONNECTIONS}, see the pom's bootstrap properties), and
 * the message limits: the dialect's (smaller on the IT server) for its messages, the gateway's for MCP.
 */
class QueryDialectSocketIT {

    /** {@code query.limit.max-connections} of the IT server. */
    static final int MAX_CONNECTIONS = 4;
    /** {@code query.limit.max-message-bytes} of the IT server (seed: 10 MB). */
    static final int DIALECT_MAX_BYTES = 5 * 1024 * 1024;
    /** {@code switchboard.gateway.max-body-bytes}, left at its default. */
    static final int GATEWAY_MAX_BYTES = 4 * 1024 * 1024;

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final NewUser user = new NewUser();

    static QuerySocketClient ready() throws InterruptedException {
        QuerySocketClient client = new QuerySocketClient();
        client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
        client.result("auth.authenticate", Json.createObjectBuilder().add("token", user.token()).build());
        return client;
    }

    @Test
    void negotiateAuthenticateAndQueryOverTheWebSocket() throws Exception {
        try (QuerySocketClient client = new QuerySocketClient()) {
            JsonObject wrong = client.call("protocol.negotiate", params("{\"versions\":[\"2.0.0\"]}"));
            assertEquals("response", wrong.getString("type"));
            assertEquals(-32001, code(wrong));
            assertEquals("1.0.0", client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}")).getString("version"));
            assertEquals(-31000, code(client.call("schema.info", params("{}"))), "nothing before auth.authenticate");
            assertEquals(-31000, code(client.call("auth.authenticate", params("{\"token\":\"not-a-jwt\"}"))));
            assertTrue(client.result("auth.authenticate", Json.createObjectBuilder().add("token", user.token()).build()).getBoolean("success"));

            Script script = provider.script(Reply.text("```sql\nSELECT id, name FROM users ORDER BY id\n```"));
            JsonObject answer = client.result("query.execute", Json.createObjectBuilder().add("query", "查询用户 " + script.key())
                    .add("options", params("{\"limit\":2}")).build());
            assertEquals(2, answer.getJsonArray("data").size(), answer::toString);
            assertEquals(2, answer.getJsonObject("metadata").getInt("row_count"));

            assertEquals(-32601, code(client.call("query.nosuch", params("{}"))));
            JsonObject forbidden = client.call("schema.info", params("{\"table\":\"employees\"}"));
            assertEquals(-31001, code(forbidden));
            assertEquals("table:employees:read", forbidden.getJsonObject("error").getJsonObject("data").getString("required_permission"));
        }
    }

    @Test
    void aStatementRunningPastItsTimeoutIsStoppedWithTimeoutAndElapsed() throws Exception {
        try (QuerySocketClient client = ready()) {
            Script script = provider.script(Reply.text("SELECT COUNT(*) FROM order_items a, order_items b, order_items c "
                    + "WHERE a.quantity + b.quantity + c.quantity > 0"));
            long started = System.nanoTime();
            JsonObject answer = client.call("query.execute", Json.createObjectBuilder().add("query", "订单明细 数量 " + script.key())
                    .add("options", params("{\"timeout\":1}")).build());
            double seconds = (System.nanoTime() - started) / 1e9;
            assertEquals(-32002, code(answer), answer::toString);
            JsonObject data = answer.getJsonObject("error").getJsonObject("data");
            assertEquals(1, data.getInt("timeout"));
            assertTrue(data.getJsonNumber("elapsed").doubleValue() >= 0.9, data::toString);
            assertTrue(seconds < 15, "stopped after " + seconds + " s");
            // the IT server reports progress every 0.5 s while a query runs
            JsonObject progress = client.await(m -> "query.progress".equals(m.getString("method", "")), 1);
            assertEquals("notification", progress.getString("type"));
        }
    }

    @Test
    void anExpiredSessionIsAnnouncedOnTheSocket() throws Exception {
        try (QuerySocketClient client = ready()) {
            String id = client.result("session.create", params("{}")).getString("session_id");
            assertEquals(id, client.result("session.get", params("{\"session_id\":\"" + id + "\"}")).getString("session_id"));
            // an hour of waiting, skipped: the session's expiry moves into the past; the sweep runs every 10 s
            assertEquals(1, ServerDatabase.update("UPDATE query_sessions SET expires_at = 0 WHERE id = '" + id + "'"));
            JsonObject expired = client.await(m -> "session.expired".equals(m.getString("method", "")), 25);
            assertEquals("notification", expired.getString("type"));
            assertEquals(id, expired.getJsonObject("params").getString("session_id"));
            assertEquals(-31002, code(client.call("session.get", params("{\"session_id\":\"" + id + "\"}"))));
        }
    }

    @Test
    void connectionsOverTheLimitAreRefusedWithMinus32000AndClosedOnEitherTransport() throws Exception {
        awaitOpenDialectConnections(0);
        List<QuerySocketClient> admitted = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_CONNECTIONS; i++) {
                QuerySocketClient client = new QuerySocketClient();
                admitted.add(client);
                client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
            }
            assertEquals(MAX_CONNECTIONS, openDialectConnections());

            try (QuerySocketClient refused = new QuerySocketClient()) {
                JsonObject answer = refused.call("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
                assertEquals(-32000, code(answer), answer::toString);
                JsonObject data = answer.getJsonObject("error").getJsonObject("data");
                assertEquals("too_many_connections", data.getString("reason"));
                assertEquals(MAX_CONNECTIONS, data.getInt("max_connections"));
                assertEquals("1013 too_many_connections", refused.closedByServer.get(10, TimeUnit.SECONDS));
            }
            try (QueryTcpClient tcp = new QueryTcpClient()) {
                JsonObject answer = tcp.call("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
                assertEquals(-32000, code(answer), "the WebSocket connections count against the TCP transport too: " + answer);
                assertThrows(IOException.class, tcp::read, "and the TCP connection is closed");
            }
            for (QuerySocketClient client : admitted) {
                assertTrue(client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}")).containsKey("version"),
                        "the admitted connections go on");
            }

            admitted.remove(0).close();
            awaitOpenDialectConnections(MAX_CONNECTIONS - 1);
            QuerySocketClient again = new QuerySocketClient();
            admitted.add(again);
            assertEquals("1.0.0", again.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}")).getString("version"),
                    "a closed connection's place is free again");
        } finally {
            admitted.forEach(QuerySocketClient::close);
        }
    }

    @Test
    void aDialectMessageMayBeAsLargeAsTheQueryLimitWhileMcpKeepsTheGatewaysLimit() throws Exception {
        try (QuerySocketClient client = new QuerySocketClient()) {
            String pad = "x".repeat(GATEWAY_MAX_BYTES + 1024);
            JsonObject large = client.call("protocol.negotiate", Json.createObjectBuilder()
                    .add("versions", Json.createArrayBuilder().add("1.0.0")).add("pad", pad).build());
            assertEquals("1.0.0", large.getJsonObject("result").getString("version"),
                    "over the gateway's limit, under the dialect's, answered normally: " + abbreviated(large));

            client.send("protocol.negotiate", Json.createObjectBuilder().add("versions", Json.createArrayBuilder().add("1.0.0"))
                    .add("pad", "x".repeat(DIALECT_MAX_BYTES)).build());
            JsonObject tooLarge = client.await(m -> m.containsKey("error") && JsonValue.NULL.equals(m.get("id")), 30);
            assertEquals("response", tooLarge.getString("type"), "the dialect's shape, as on TCP: " + tooLarge);
            assertEquals(-32600, code(tooLarge));
            JsonObject data = tooLarge.getJsonObject("error").getJsonObject("data");
            assertEquals(DIALECT_MAX_BYTES, data.getInt("max_message_bytes"));
            assertTrue(data.getInt("message_bytes") > DIALECT_MAX_BYTES, data::toString);

            client.sendText("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":{\"_meta\":{\"pad\":\""
                    + "x".repeat(GATEWAY_MAX_BYTES) + "\"}}}");
            JsonObject mcpTooLarge = client.await(m -> m.containsKey("jsonrpc"), 30);
            assertEquals(-32600, mcpTooLarge.getJsonObject("error").getInt("code"), mcpTooLarge::toString);
            assertTrue(mcpTooLarge.getJsonObject("error").getString("message").contains("too large"), mcpTooLarge::toString);

            assertEquals("1.0.0", client.result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}")).getString("version"),
                    "the socket goes on");
        }
    }

    private static String abbreviated(JsonObject message) {
        String text = message.toString();
        return text.length() > 500 ? text.substring(0, 500) + "..." : text;
    }

    /**
     * How many dialect connections the server counts: the {@code delivered} of a {@code system.status} broadcast
     * (harmless to the tests' clients, which keep unexpected notifications aside).
     */
    static int openDialectConnections() {
        return Api.post("/api/query/system-status", Api.adminToken(), params("{\"status\":\"ok\"}")).expect(200).json().getInt("delivered");
    }

    /** Waits until the server counts exactly {@code expected} dialect connections (closes reach it asynchronously). */
    static void awaitOpenDialectConnections(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        int open;
        while ((open = openDialectConnections()) != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the server still counts " + open + " dialect connections, expected " + expected);
            }
            Thread.sleep(100);
        }
    }
}
