package dev.switchboard.sql.tcp;

import dev.switchboard.platform.json.GeneratedCases;
import dev.switchboard.platform.json.HostileCorpus;
import dev.switchboard.platform.json.JsonLimits;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generated messages over a real TCP connection to the dialect's transport: a number with any exponent, any depth of
 * nesting, any string of UTF-16 units inside an otherwise ordinary request. Each is handled exactly when it is within
 * the reading limits and refused with the dialect's parse error otherwise, at a bounded cost, and the connection goes on.
 * The cases are the limits' edges and a fixed number generated from a fixed seed ({@link GeneratedCases}).
 */
class HostileDialectPropertiesTest {

    private static final JsonLimits LIMITS = JsonLimits.DEFAULTS;
    private static EchoLine line;

    @BeforeAll
    static void start() throws Exception {
        line = new EchoLine();
    }

    @AfterAll
    static void stop() throws Exception {
        line.close();
    }

    @ParameterizedTest(name = "{0}e{1}")
    @MethodSource("numbers")
    void numbersWithAnyExponent(String digits, long exponent) throws Exception {
        String number = digits + "e" + exponent;
        boolean readable = Math.abs(exponent) < Integer.MAX_VALUE - 100
                && Math.abs((long) new BigDecimal(number).scale()) <= LIMITS.maxNumberScale();
        exchange(number, readable, "is out of range");
    }

    @ParameterizedTest(name = "depth {0}")
    @MethodSource("depths")
    void nestingOfAnyDepth(int depth) throws Exception {
        // the request's own object and its params are two levels of the total
        exchange("[".repeat(depth) + "]".repeat(depth), depth + 2 <= LIMITS.maxDepth(), "nested deeper than");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("units")
    void stringsOfAnyUtf16Units(String units) throws Exception {
        StringBuilder escaped = new StringBuilder("\"");
        units.chars().forEach(c -> escaped.append(String.format("\\u%04x", c)));
        exchange(escaped.append('"').toString(), !HostileCorpus.hasLoneSurrogate(units), "unpaired surrogate");
    }

    static Stream<Arguments> numbers() {
        long wide = 99_999_999_999L;
        return GeneratedCases.cases(0x5ca1ab1eL, 200,
                GeneratedCases.combinations(List.of("1", "9", "123456789".repeat(3) + "123"), GeneratedCases.exponentEdges(wide)),
                random -> Arguments.of(GeneratedCases.digits(random, '1', 1, 30), GeneratedCases.exponent(random, wide)));
    }

    /** Any depth up to 5000, and every one around the limit, where an off-by-one would show. */
    static Stream<Arguments> depths() {
        int limit = LIMITS.maxDepth();
        List<Arguments> edges = IntStream.concat(IntStream.of(1, 5000), IntStream.rangeClosed(limit - 4, limit + 2))
                .mapToObj(Arguments::of).toList();
        return GeneratedCases.cases(0xdee9L, 40, edges, random -> Arguments.of(random.nextInt(1, 5001)));
    }

    static Stream<Arguments> units() {
        return GeneratedCases.cases(0x16b17L, 200,
                GeneratedCases.UTF16_EDGES.stream().map(s -> Arguments.of(GeneratedCases.named(s))).toList(),
                random -> Arguments.of(GeneratedCases.named(GeneratedCases.utf16Units(random, 12))));
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
