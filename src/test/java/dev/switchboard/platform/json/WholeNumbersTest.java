package dev.switchboard.platform.json;

import jakarta.json.JsonValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A whole number is taken only when it is exactly one within the range, never as its low bits. The cases are the
 * ranges' edges and numbers of up to 30 digits with any exponent the reader lets through, from a fixed seed
 * ({@link GeneratedCases}); the expected answer comes from {@link BigDecimal} arithmetic.
 */
class WholeNumbersTest {

    static Stream<Arguments> numbers() {
        BigInteger two = BigInteger.TWO;
        List<Arguments> edges = Stream.of(BigInteger.ZERO, BigInteger.valueOf(Integer.MAX_VALUE), two.pow(31),
                        two.pow(32).add(BigInteger.valueOf(5)), BigInteger.valueOf(Long.MAX_VALUE), two.pow(63),
                        two.pow(64).add(BigInteger.ONE))
                .flatMap(n -> Stream.of(n.toString(), n.negate().toString(), n.subtract(BigInteger.ONE).negate().toString()))
                .map(Arguments::of).toList();
        List<Arguments> shapes = Stream.of("1e999", "1E+2", "100", "1.5", "5.0", "-0", "1e-1000", "12345678901234567890123")
                .map(Arguments::of).toList();
        return GeneratedCases.cases(20261125L, 300, Stream.concat(edges.stream(), shapes.stream()).toList(), random -> {
            String digits = GeneratedCases.digits(random, '0', 1, 30);
            // near a long's range half the time, else anywhere the reader lets through (its scale limit is 1000)
            long exponent = random.nextBoolean() ? random.nextLong(-30, 31) : random.nextLong(-980, 981);
            String sign = random.nextBoolean() ? "-" : "";
            return Arguments.of(sign + digits + (random.nextInt(3) == 0 ? "" : "e" + exponent));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("numbers")
    void aNumberIsTakenOnlyWhenItIsExactlyAWholeNumberInRange(String text) {
        JsonValue value = JsonProviders.JSON.createReader(new StringReader(text)).readValue();
        BigDecimal exact = new BigDecimal(text);
        boolean integral = exact.scale() == 0; // JSON-P's own notion: 5.0 and 1E+2 are not integral
        OptionalLong expectedLong = integral && exact.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                && exact.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0 ? OptionalLong.of(exact.longValueExact()) : OptionalLong.empty();
        OptionalInt expectedInt = expectedLong.isPresent() && expectedLong.getAsLong() == (int) expectedLong.getAsLong()
                ? OptionalInt.of((int) expectedLong.getAsLong()) : OptionalInt.empty();
        assertEquals(expectedLong, WholeNumbers.asLong(value), text);
        assertEquals(expectedInt, WholeNumbers.asInt(value), text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("others")
    void aValueThatIsNoNumberIsNoWholeNumber(String text) {
        JsonValue value = JsonProviders.JSON.createReader(new StringReader(text)).readValue();
        assertEquals(OptionalLong.empty(), WholeNumbers.asLong(value));
        assertEquals(OptionalInt.empty(), WholeNumbers.asInt(value));
    }

    static Stream<String> others() {
        return Stream.of("\"5\"", "true", "null", "[5]", "{\"n\":5}");
    }
}
