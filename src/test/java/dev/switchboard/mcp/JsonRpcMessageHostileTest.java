package dev.switchboard.mcp;

import dev.switchboard.platform.json.GeneratedCases;
import dev.switchboard.platform.json.JsonLimits;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer's message with a number of any exponent and an id of any kind: read as sent when within the limits; else, when
 * it is an answer, turned into a -32700 error answer to the same id; else refused as a protocol error. The cases are
 * the limits' edges and a fixed number generated from a fixed seed ({@link GeneratedCases}).
 */
class JsonRpcMessageHostileTest {

    @ParameterizedTest(name = "id {0}, number {1}, answer {2}")
    @MethodSource("messages")
    void aPeersMessageIsReadOrAnsweredWithAParseErrorForItsId(String id, String number, boolean answer) throws Exception {
        String text = answer ? "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"n\":" + number + "}}"
                : "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"sampling/createMessage\",\"params\":{\"n\":" + number + "}}";
        boolean readable = Math.abs(Long.parseLong(number.substring(number.indexOf('e') + 1))) < Integer.MAX_VALUE - 100
                && Math.abs((long) new BigDecimal(number).scale()) <= JsonLimits.DEFAULTS.maxNumberScale();
        if (readable) {
            JsonRpcMessage message = JsonRpcMessage.parseFromPeer(text);
            assertEquals(0, new BigDecimal(number).compareTo(message.json().getJsonObject(answer ? "result" : "params")
                    .getJsonNumber("n").bigDecimalValue()));
        } else if (answer) {
            JsonRpcMessage message = JsonRpcMessage.parseFromPeer(text);
            assertEquals(id, message.idKey());
            assertEquals(JsonRpcMessage.PARSE_ERROR, message.json().getJsonObject("error").getInt("code"));
            assertTrue(message.json().getJsonObject("error").getString("message").contains("is out of range"), message::toJson);
        } else {
            McpException e = assertThrows(McpException.class, () -> JsonRpcMessage.parseFromPeer(text));
            assertEquals(McpException.Kind.PROTOCOL, e.kind());
        }
    }

    static Stream<Arguments> messages() {
        long wide = 99_999_999_999L;
        List<Arguments> edges = new ArrayList<>();
        List<String> ids = List.of("0", "999999999999", "\"a\"", "\"" + "Z9".repeat(6) + "\"");
        for (long exponent : GeneratedCases.exponentEdges(wide)) {
            for (boolean answer : new boolean[] {true, false}) {
                edges.add(Arguments.of(ids.get(edges.size() % ids.size()), "1e" + exponent, answer));
            }
        }
        return GeneratedCases.cases(0x3270L, 300, edges, random -> Arguments.of(id(random),
                GeneratedCases.digits(random, '1', 1, 20) + "e" + GeneratedCases.exponent(random, wide), random.nextBoolean()));
    }

    /** Half numeric ids, half quoted strings of letters and digits. */
    private static String id(Random random) {
        if (random.nextBoolean()) {
            return String.valueOf(random.nextLong(0, 1_000_000_000_000L));
        }
        String alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder id = new StringBuilder("\"");
        for (int i = random.nextInt(1, 13); i > 0; i--) {
            id.append(alphanumerics.charAt(random.nextInt(alphanumerics.length())));
        }
        return id.append('"').toString();
    }
}
