package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.SharedEverything;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static dev.switchboard.it.support.GatewayClient.socketRaw;
import static dev.switchboard.it.support.GatewayClient.socketStep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /mcp} over WebSocket, in front of one shared server-everything: the official SDK client's
 * WebSocketClientTransport, and raw messages for what a well-behaved client never sends.
 */
class GatewaySocketIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("ws");
    @RegisterExtension
    static final NewUser user = new NewUser();

    static int code(JsonObject answer) {
        return answer.getJsonObject("error").getInt("code");
    }

    @Test
    void theSdkClientListsAndCallsWithProgress() {
        JsonObject outcome = socketStep(user.token(), Json.createObjectBuilder().add("op", "sdk")
                .add("call", backend.name() + "__trigger-long-running-operation")
                .add("arguments", Json.createObjectBuilder().add("duration", 1).add("steps", 2)).build());
        assertFalse(outcome.containsKey("error"), outcome::toString);
        assertEquals("switchboard", outcome.getJsonObject("serverInfo").getString("name"));
        assertTrue(outcome.getJsonObject("capabilities").containsKey("resources"), outcome::toString);
        List<String> tools = outcome.getJsonArray("tools").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
        assertEquals(5, tools.size(), "the IT server pages by 5");
        assertTrue(outcome.getJsonObject("result").toString().contains("completed"), outcome::toString);
        GatewayClient.assertProgressDelivered(outcome, 2);
    }

    @Test
    void theMcpSubprotocolIsOfferedAndNotRequired() {
        JsonObject with = socketRaw(user.token(), Json.createObjectBuilder().add("protocols", Json.createArrayBuilder().add("mcp")),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertEquals("mcp", with.getString("protocol"), with::toString);
        assertEquals(Json.createObjectBuilder().build(), with.getJsonArray("answers").getJsonObject(0).getJsonObject("result"));
        JsonObject without = socketRaw(user.token(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertEquals("", without.getString("protocol"), without::toString);
        assertEquals(1, without.getJsonArray("answers").getJsonObject(0).getInt("id"));
    }

    @Test
    void aRevokedApiKeyGetsAuthenticationRequiredWhileTheDialectIsStillServed() {
        JsonObject key = Api.post("/api/api-keys", user.token(), Json.createObjectBuilder().add("name", "socket-it").build()).expect(201).json();
        Api.delete("/api/api-keys/" + key.getJsonNumber("id"), user.token()).expect(204);
        JsonObject outcome = socketRaw(key.getString("key"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                "{\"type\":\"request\",\"id\":\"q1\",\"method\":\"auth.authenticate\",\"params\":{}}");
        JsonArray answers = outcome.getJsonArray("answers");
        assertEquals(2, answers.size(), outcome::toString);
        assertEquals(-32001, code(answers.getJsonObject(0)));
        assertTrue(answers.getJsonObject(0).getJsonObject("error").getString("message").contains("authentication required"));
        assertTrue(answers.getJsonObject(1).containsKey("type"), "the dialect answers in its own shape: " + outcome);
        assertFalse(outcome.containsKey("closed"), "the socket stays open: " + outcome);
    }

    @Test
    void withoutATokenMcpIsRefusedButTheSocketServesTheDialect() {
        JsonObject outcome = socketRaw("", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                "{\"type\":\"request\",\"id\":\"q1\",\"method\":\"auth.authenticate\",\"params\":{}}");
        JsonArray answers = outcome.getJsonArray("answers");
        assertEquals(2, answers.size(), outcome::toString);
        assertEquals(-32001, code(answers.getJsonObject(0)));
        assertTrue(answers.getJsonObject(1).containsKey("type"), "the dialect answers in its own shape: " + outcome);
        assertFalse(outcome.containsKey("closed"), "the socket stays open: " + outcome);
    }

    @Test
    void badMessagesGetJsonRpcErrorsAndTheSocketStaysOpen() {
        var texts = Json.createArrayBuilder().add("not json").add("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]")
                .add("{\"hello\":1}").add(Json.createObjectBuilder().add("padded", 4 * 1024 * 1024))
                .add("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"no/such\"}").add("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        JsonObject outcome = socketStep(user.token(), Json.createObjectBuilder().add("op", "raw").add("texts", texts).build());
        JsonArray answers = outcome.getJsonArray("answers");
        assertEquals(6, answers.size(), outcome::toString);
        assertEquals(-32700, code(answers.getJsonObject(0)));
        assertEquals(-32600, code(answers.getJsonObject(1)));
        assertEquals(-32600, code(answers.getJsonObject(2)));
        assertEquals(-32600, code(answers.getJsonObject(3)));
        assertTrue(answers.getJsonObject(3).getJsonObject("error").getString("message").contains("too large"));
        // the last two are served on workers and may be answered in either order: match them by id
        JsonObject noSuch = answers.getJsonObject(4).getInt("id", 0) == 2 ? answers.getJsonObject(4) : answers.getJsonObject(5);
        JsonObject ping = noSuch == answers.getJsonObject(4) ? answers.getJsonObject(5) : answers.getJsonObject(4);
        assertEquals(2, noSuch.getInt("id"), outcome::toString);
        assertEquals(-32601, code(noSuch));
        assertEquals(3, ping.getInt("id"), outcome::toString);
        assertTrue(ping.containsKey("result"), outcome::toString);
    }

    @Test
    void aForeignOriginIsRefusedAtTheHandshake() {
        JsonObject outcome = socketRaw(user.token(), Json.createObjectBuilder().add("headers", Json.createObjectBuilder()
                .add("Origin", "http://evil.example")), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertEquals(403, outcome.getInt("status", -1), outcome::toString);
    }
}
