package dev.switchboard.audit;

import dev.switchboard.platform.json.GeneratedCases;
import dev.switchboard.platform.json.HostileCorpus;
import dev.switchboard.platform.json.JsonLimits;
import jakarta.json.JsonNumber;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Stream;

import static dev.switchboard.platform.json.JsonProviders.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Canonical JSON is what audit hashes are made of: a number from anywhere is written at a cost bounded by its
 * digits, not its exponent, and every number the reader lets in keeps the plain form hashes were made with.
 */
class CanonicalJsonTest {

    /** The finding of issue 15: 1e9000000 in a tool call's arguments kept a core busy for seconds here. */
    @Test
    void aHugeExponentIsWrittenAsDigitsAndExponentAtOnce() throws Exception {
        for (String number : new String[] {"1e9000000", "-1.5E-9000000", "123e2147483647"}) {
            JsonNumber value = JsonProvider.provider().createValue(new BigDecimal(number));
            var measured = HostileCorpus.cpu(() -> CanonicalJson.of(value));
            assertTrue(measured.cpuNanos() < 50_000_000L, number + " took " + measured.cpuNanos() / 1_000_000 + " ms");
            assertEquals(new BigDecimal(number).stripTrailingZeros(), new BigDecimal(measured.value()), number);
        }
        assertEquals("1e9000000", CanonicalJson.of(JsonProvider.provider().createValue(new BigDecimal("1e9000000"))));
        assertEquals("-15e-9000001", CanonicalJson.of(JsonProvider.provider().createValue(new BigDecimal("-1.50E-9000000"))));
    }

    @Test
    void numbersKeepTheirPlainFormUpToTheBound() {
        assertEquals("{\"a\":1,\"b\":100,\"c\":1.5,\"d\":0.0000001,\"e\":-20}",
                CanonicalJson.of(JSON.createReader(new StringReader("{\"e\":-2e1,\"d\":1e-7,\"c\":1.50,\"b\":1e2,\"a\":1.0}")).readObject()));
        assertEquals("1" + "0".repeat(CanonicalJson.PLAIN_SCALE_LIMIT),
                CanonicalJson.number(JsonProvider.provider().createValue(new BigDecimal("1e" + CanonicalJson.PLAIN_SCALE_LIMIT))));
        assertEquals("1e" + (CanonicalJson.PLAIN_SCALE_LIMIT + 1),
                CanonicalJson.number(JsonProvider.provider().createValue(new BigDecimal("1e" + (CanonicalJson.PLAIN_SCALE_LIMIT + 1)))));
    }

    /** Values as deep as the reader lets in are canonicalised (and written) without running out of stack. */
    @Test
    void theDeepestReadableValueIsCanonicalised() {
        int depth = JsonLimits.DEFAULTS.maxDepth();
        String text = "[".repeat(depth) + "]".repeat(depth);
        JsonValue deep = JSON.createReader(new StringReader(text)).readValue();
        assertEquals(text, CanonicalJson.of(deep));
        assertEquals(text, deep.toString());
    }

    /** Any number the reader accepts reads back from its canonical form as the same number, in plain notation. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("numbers")
    void acceptedNumbersHaveAnExactPlainCanonicalForm(String number) {
        JsonNumber value = (JsonNumber) JSON.createReader(new StringReader(number)).readValue();
        String canonical = CanonicalJson.of(value);
        assertEquals(0, new BigDecimal(canonical).compareTo(new BigDecimal(number)), number + " -> " + canonical);
        assertTrue(!canonical.contains("e") && !canonical.contains("E"), canonical);
    }

    /**
     * Up to 30 digits with any exponent the reader accepts for them, from seed; and the ends of that range, with one
     * digit and with thirty.
     */
    static Stream<Arguments> numbers() {
        int scale = JsonLimits.DEFAULTS.maxNumberScale();
        List<Arguments> edges = GeneratedCases.combinations(List.of("0", "1", "9".repeat(30)), List.of(-scale + 30, 0, scale))
                .stream().map(digitsAndExponent -> Arguments.of(digitsAndExponent.get()[0] + "e" + digitsAndExponent.get()[1]))
                .toList();
        return GeneratedCases.cases(0xca11L, 300, edges, random -> Arguments.of(GeneratedCases.digits(random, '0', 1, 30)
                + "e" + random.nextInt(-scale + 30, scale + 1)));
    }
}
