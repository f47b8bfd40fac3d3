package dev.switchboard.sql.tcp;

import dev.switchboard.platform.json.HostileCorpus;
import dev.switchboard.platform.json.JsonLimits;
import jakarta.json.JsonObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generated messages over a real TCP connection to the dialect's transport: a number with any exponent, any depth of
 * nesting, any string of UTF-16 units inside an otherwise ordinary request. Each is handled exactly when it is within
 * the reading limits and refused with the dialect's parse error otherwise, at a bounded cost, and the connection goes on.
 */
class HostileDialectPropertiesTest {

    private static final JsonLimits LIMITS = JsonLimits.DEFAULTS;
    private static EchoLine line;

    @BeforeContainer
    static void start() throws Exception {
        line = new EchoLine();
    }

    @AfterContainer
    static void stop() throws Exception {
        line.close();
    }

    @Property(tries = 200)
    void numbersWithAnyExponent(@ForAll("digits") String digits, @ForAll("exponents") long exponent) throws Exception {
        String number = digits + "e" + exponent;
        boolean readable = Math.abs(exponent) < Integer.MAX_VALUE - 100
                && Math.abs((long) new BigDecimal(number).scale()) <= LIMITS.maxNumberScale();
        exchange(number, readable, "is out of range");
    }

    @Property(tries = 40)
    void nestingOfAnyDepth(@ForAll("depths") int depth) throws Exception {
        // the request's own object and its params are two levels of the total
        exchange("[".repeat(depth) + "]".repeat(depth), depth + 2 <= LIMITS.maxDepth(), "nested deeper than");
    }

    @Property(tries = 200)
    void stringsOfAnyUtf16Units(@ForAll("units") String units) throws Exception {
        StringBuilder escaped = new StringBuilder("\"");
        units.chars().forEach(c -> escaped.append(String.format("\\u%04x", c)));
        exchange(escaped.append('"').toString(), !HostileCorpus.hasLoneSurrogate(units), "unpaired surrogate");
    }

    /** Any depth, and often the ones around the limit, where an off-by-one would show. */
    @Provide
    Arbitrary<Integer> depths() {
        return Arbitraries.oneOf(Arbitraries.integers().between(1, 5000),
                Arbitraries.integers().between(LIMITS.maxDepth() - 4, LIMITS.maxDepth() + 2));
    }

    @Provide
    Arbitrary<String> digits() {
        return Arbitraries.strings().withCharRange('1', '9').ofMinLength(1).ofMaxLength(30);
    }

    @Provide
    Arbitrary<Long> exponents() {
        return Arbitraries.oneOf(Arbitraries.longs().between(-1100, 1100), Arbitraries.longs().between(-99_999_999_999L, 99_999_999_999L));
    }

    @Provide
    Arbitrary<String> units() {
        return Arbitraries.strings().withCharRange('\u0000', '\uffff').ofMaxLength(12);
    }

    private static void exchange(String value, boolean readable, String reason) throws Exception {
        String message = "{\"type\":\"request\",\"id\":\"p\",\"method\":\"echo\",\"params\":{\"v\":" + value + "}}";
        long before = HostileCorpus.processCpuNanos();
        line.send(message.getBytes(StandardCharsets.UTF_8));
        JsonObject answer = line.read();
        long cpu = HostileCorpus.processCpuNanos() - before;
        if (readable) {
            assertEquals("p", answer.getString("id"), answer::toString);
            assertTrue(answer.containsKey("result"), answer::toString);
        } else {
            JsonObject error = answer.getJsonObject("error");
            assertEquals(-32700, error.getInt("code"), answer::toString);
            assertTrue(error.getJsonObject("data").getString("reason").contains(reason), answer::toString);
        }
        assertTrue(cpu < HostileCorpus.CPU_BOUND_NANOS, value.length() + " characters cost " + cpu / 1_000_000 + " ms");
    }

}
