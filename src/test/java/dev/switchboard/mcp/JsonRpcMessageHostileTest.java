package dev.switchboard.mcp;

import dev.switchboard.platform.json.JsonLimits;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer's message with a number of any exponent and an id of any kind: read as sent when within the limits; else, when
 * it is an answer, turned into a -32700 error answer to the same id; else refused as a protocol error.
 */
class JsonRpcMessageHostileTest {

    @Property(tries = 300)
    void aPeersMessageIsReadOrAnsweredWithAParseErrorForItsId(@ForAll("ids") String id, @ForAll("numbers") String number,
                                                             @ForAll boolean answer) throws Exception {
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

    @Provide
    Arbitrary<String> ids() {
        return Arbitraries.oneOf(Arbitraries.longs().between(0, 999_999_999_999L).map(String::valueOf),
                Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(12).map(s -> "\"" + s + "\""));
    }

    @Provide
    Arbitrary<String> numbers() {
        return Arbitraries.strings().withCharRange('1', '9').ofMinLength(1).ofMaxLength(20).flatMap(digits ->
                Arbitraries.oneOf(Arbitraries.longs().between(-1100, 1100), Arbitraries.longs().between(-99_999_999_999L, 99_999_999_999L))
                        .map(exponent -> digits + "e" + exponent));
    }
}
