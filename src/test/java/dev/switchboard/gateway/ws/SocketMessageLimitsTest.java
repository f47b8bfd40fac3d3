package dev.switchboard.gateway.ws;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SocketMessageLimitsTest {

    /** MCP 100 bytes, the dialect 200. */
    private final SocketMessageLimits limits = new SocketMessageLimits(100, 200);

    private static String dialect(int bytes) {
        String head = "{\"type\":\"request\",\"id\":\"1\",\"method\":\"protocol.negotiate\",\"params\":{\"pad\":\"";
        return head + "x".repeat(bytes - head.length() - 3) + "\"}}";
    }

    private static String mcp(int bytes) {
        String head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"";
        return head + "x".repeat(bytes - head.length() - 3) + "\"}}";
    }

    @Test
    void aDialectMessageMayBeAsLargeAsTheDialectsLimit() {
        assertEquals(Optional.empty(), limits.refusal(dialect(150)), "over the MCP limit, under the dialect's");
        assertEquals(Optional.empty(), limits.refusal(dialect(200)));
        JsonObject refused = limits.refusal(dialect(201)).orElseThrow();
        assertEquals("response", refused.getString("type"));
        assertTrue(refused.isNull("id"));
        assertEquals(-32600, refused.getJsonObject("error").getInt("code"));
        assertEquals(200, refused.getJsonObject("error").getJsonObject("data").getInt("max_message_bytes"));
        assertEquals(201, refused.getJsonObject("error").getJsonObject("data").getInt("message_bytes"));
    }

    @Test
    void everyOtherMessageKeepsTheGatewaysLimitAndJsonRpcError() {
        assertEquals(Optional.empty(), limits.refusal(mcp(100)));
        assertJsonRpcTooLarge(limits.refusal(mcp(101)));
        assertJsonRpcTooLarge(limits.refusal("{\"hello\":\"" + "x".repeat(150) + "\"}"));
        assertJsonRpcTooLarge(limits.refusal("not json " + "x".repeat(150)));
        assertJsonRpcTooLarge(limits.refusal("[{\"type\":\"request\",\"pad\":\"" + "x".repeat(150) + "\"}]"));
        // the socket treats an object with both keys as MCP, whichever comes first
        assertJsonRpcTooLarge(limits.refusal("{\"type\":\"x\",\"pad\":\"" + "x".repeat(150) + "\",\"jsonrpc\":\"2.0\"}"));
    }

    @Test
    void onlyTopLevelKeysDecideTheDialect() {
        assertTrue(SocketMessageLimits.isDialect("{\"params\":{\"jsonrpc\":\"2.0\",\"list\":[{\"jsonrpc\":1}]},\"type\":\"request\"}"));
        assertFalse(SocketMessageLimits.isDialect("{\"params\":{\"type\":\"request\"},\"jsonrpc\":\"2.0\"}"));
        assertFalse(SocketMessageLimits.isDialect("{\"params\":{\"type\":\"request\"}}"));
        assertTrue(SocketMessageLimits.isDialect("{\"type\":\"request\",\"pad\":\"broken"), "judged by the keys before the break");
        assertFalse(SocketMessageLimits.isDialect("\"type\""));
    }

    @Test
    void sizesAreUtf8Bytes() {
        assertEquals(3, SocketMessageLimits.utf8Length("中"));
        assertEquals(4, SocketMessageLimits.utf8Length("😀"));
        assertEquals(2, SocketMessageLimits.utf8Length("é"));
        // 40 Chinese characters are 40 chars but 120 bytes: over the MCP limit
        assertJsonRpcTooLarge(limits.refusal("{\"jsonrpc\":\"2.0\",\"p\":\"" + "中".repeat(40) + "\"}"));
        String chinese = "{\"type\":\"request\",\"p\":\"" + "中".repeat(70) + "\"}";
        JsonObject refused = limits.refusal(chinese).orElseThrow();
        assertEquals(chinese.getBytes(StandardCharsets.UTF_8).length,
                refused.getJsonObject("error").getJsonObject("data").getInt("message_bytes"));
    }

    @Test
    void theContainerReadsTwiceTheLargerLimit() {
        assertEquals(400, limits.containerMaxMessage());
        assertEquals(400, new SocketMessageLimits(200, 100).containerMaxMessage());
        assertEquals(Integer.MAX_VALUE, new SocketMessageLimits(Integer.MAX_VALUE, 1).containerMaxMessage());
    }

    @Test
    void limitsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new SocketMessageLimits(0, 100));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SocketMessageLimits(100, -1));
        assertTrue(e.getMessage().contains("query.limit.max-message-bytes"), e.getMessage());
    }

    private static void assertJsonRpcTooLarge(Optional<JsonObject> refusal) {
        JsonObject error = refusal.orElseThrow();
        assertEquals("2.0", error.getString("jsonrpc"));
        assertEquals(-32600, error.getJsonObject("error").getInt("code"));
        assertTrue(error.getJsonObject("error").getString("message").contains("too large"), error::toString);
    }
}
