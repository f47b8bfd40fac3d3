package dev.switchboard.platform.json;

import dev.switchboard.platform.json.HostileCorpus.Document;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParsingException;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one bounded reading path: every known-bad document of the corpus is refused with a message that says why (or
 * read, when only its top-level type is wrong), at a bounded cost; and, over generated cases (the limits' edges and a
 * fixed number from a fixed seed, {@link GeneratedCases}), limits hold exactly at their edges while every document
 * within them reads back unchanged.
 */
class BoundedJsonReaderTest {

    private static final JsonProvider JSON = new BoundedJsonProvider(JsonProvider.provider(), JsonLimits.DEFAULTS);

    static List<Document> corpus() {
        return HostileCorpus.all();
    }

    static List<Document> textCorpus() {
        return HostileCorpus.text();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void bytesOfEveryHostileDocumentAreRefusedWithTheirReasonOrReadAtABoundedCost(Document document) throws Exception {
        var measured = HostileCorpus.cpu(() -> outcome(() -> JSON.createReader(new ByteArrayInputStream(document.bytes()))));
        assertOutcome(document, measured.value());
        assertTrue(measured.cpuNanos() < HostileCorpus.CPU_BOUND_NANOS, document + " took " + measured.cpuNanos() / 1_000_000 + " ms of CPU");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("textCorpus")
    void textOfEveryHostileDocumentIsRefusedAlike(Document document) throws Exception {
        var measured = HostileCorpus.cpu(() -> outcome(() -> JSON.createReader(new StringReader(document.text()))));
        assertOutcome(document, measured.value());
        assertTrue(measured.cpuNanos() < HostileCorpus.CPU_BOUND_NANOS, document + " took " + measured.cpuNanos() / 1_000_000 + " ms of CPU");
    }

    @Test
    void refusalsSayWhereTheyHappened() {
        JsonParsingException e = assertThrows(JsonParsingException.class,
                () -> read("{\n  \"n\": 1e9000000\n}"));
        assertEquals("The number 1e9000000 is out of range: its exponent is beyond ±1000 (line 2, column 17)", e.getMessage());
    }

    @Test
    void readObjectOnAnotherTypeSaysWhatItGot() {
        JsonParsingException e = assertThrows(JsonParsingException.class,
                () -> JSON.createReader(new StringReader("[1]")).readObject());
        assertEquals("Expected a JSON object, got an array", e.getMessage());
    }

    @Test
    void theFactoryAndParsersKeepTheLimitsWhateverConfigurationTheCallerPasses() {
        var reader = JSON.createReaderFactory(Map.of("org.eclipse.parsson.maxDepth", 1_000_000))
                .createReader(new StringReader("[".repeat(5000) + "]".repeat(5000)));
        assertThrows(JsonParsingException.class, reader::readValue);
        var parser = JSON.createParserFactory(Map.of("org.eclipse.parsson.maxDepth", 1_000_000))
                .createParser(new StringReader("[".repeat(5000) + "]".repeat(5000)));
        assertThrows(RuntimeException.class, () -> {
            while (parser.hasNext()) {
                parser.next();
            }
        });
    }

    @Test
    void configuredLimitsApply() {
        JsonProvider tight = new BoundedJsonProvider(JsonProvider.provider(), new JsonLimits(3, 10, 5, 8, 4, 2));
        assertEquals("The JSON text is nested deeper than 3 levels (line 1, column 5)",
                assertThrows(JsonParsingException.class, () -> tight.createReader(new StringReader("[[[[]]]]")).readValue()).getMessage());
        assertEquals("A number of 11 characters is longer than the limit of 10 (line 1, column 12)",
                assertThrows(JsonParsingException.class, () -> tight.createReader(new StringReader("12345678901")).readValue()).getMessage());
        assertEquals("The number 1e6 is out of range: its exponent is beyond ±5 (line 1, column 4)",
                assertThrows(JsonParsingException.class, () -> tight.createReader(new StringReader("1e6")).readValue()).getMessage());
        assertEquals("A string of 9 characters is longer than the limit of 8 (line 1, column 12)",
                assertThrows(JsonParsingException.class, () -> tight.createReader(new StringReader("\"123456789\"")).readValue()).getMessage());
        assertEquals("An object key of 5 characters is longer than the limit of 4 (line 1, column 9)",
                assertThrows(JsonParsingException.class, () -> tight.createReader(new StringReader("{\"abcde\":1}")).readValue()).getMessage());
        assertEquals("An object has more than 2 keys (line 1, column 17)",
                assertThrows(JsonParsingException.class, () -> tight.createReader(new StringReader("{\"a\":1,\"b\":2,\"c\":3}")).readValue()).getMessage());
        assertEquals(JsonValue.TRUE, tight.createReader(new StringReader("[[[true]]]")).readArray().getJsonArray(0).getJsonArray(0).get(0));
    }

    /** A number is read exactly when its text and its exponent are within the limits, refused otherwise; cheaply either way. */
    @ParameterizedTest(name = "{0}e{1}")
    @MethodSource("numbers")
    void numbersAreReadExactlyOrRefusedAsOutOfRange(String digits, long exponent) throws Exception {
        String text = digits + "e" + exponent;
        var measured = HostileCorpus.cpu(() -> outcome(() -> JSON.createReader(new StringReader("[" + text + "]"))));
        assertTrue(measured.cpuNanos() < HostileCorpus.CPU_BOUND_NANOS, text + " took " + measured.cpuNanos() / 1_000_000 + " ms");
        BigDecimal expected = exponent > Integer.MAX_VALUE || exponent < Integer.MIN_VALUE + digits.length() ? null
                : new BigDecimal(text);
        if (expected == null || Math.abs((long) expected.scale()) > JsonLimits.DEFAULTS.maxNumberScale()) {
            assertTrue(measured.value() instanceof String message && message.contains("is out of range"), text + ": " + measured.value());
        } else {
            JsonArray read = (JsonArray) measured.value();
            assertEquals(expected, ((JsonNumber) read.get(0)).bigDecimalValue(), text);
        }
    }

    static Stream<Arguments> numbers() {
        long wide = 20_000_000_000L;
        return GeneratedCases.cases(0xb0bL, 300,
                GeneratedCases.combinations(List.of("0", "7", "1234567890".repeat(4)), GeneratedCases.exponentEdges(wide)),
                random -> Arguments.of(GeneratedCases.digits(random, '0', 1, 40), GeneratedCases.exponent(random, wide)));
    }

    /** Nesting is read up to the limit and refused one level beyond it, whatever mix of arrays and objects. */
    @ParameterizedTest(name = "depth {0}, shape {1}")
    @MethodSource("depths")
    void nestingIsReadUpToTheLimitAndRefusedBeyond(int depth, long shape) {
        StringBuilder open = new StringBuilder();
        StringBuilder close = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            boolean object = ((shape >>> (i % 64)) & 1) == 1;
            open.append(object ? "{\"k\":" : "[");
            close.insert(0, object ? "}" : "]");
        }
        String text = open + "0" + close;
        Object outcome = outcome(() -> JSON.createReader(new StringReader(text)));
        if (depth <= JsonLimits.DEFAULTS.maxDepth()) {
            assertTrue(outcome instanceof JsonValue, depth + ", shape " + shape + ": " + outcome);
        } else {
            assertTrue(outcome instanceof String message && message.startsWith("The JSON text is nested deeper than 1000 levels"), depth + ", shape " + shape + ": " + outcome);
        }
    }

    /**
     * Any depth up to 3000 in any mix of arrays and objects, and every depth around the limit, where an off-by-one would
     * show, as all arrays, all objects and alternating.
     */
    static Stream<Arguments> depths() {
        int limit = JsonLimits.DEFAULTS.maxDepth();
        List<Integer> depths = IntStream.concat(IntStream.of(1, 3000), IntStream.rangeClosed(limit - 2, limit + 2)).boxed().toList();
        return GeneratedCases.cases(0xdee9L, 40, GeneratedCases.combinations(depths, List.of(0L, -1L, 0x5555_5555_5555_5555L)),
                random -> Arguments.of(random.nextInt(1, 3001), random.nextLong()));
    }

    /** A string is refused exactly when it holds half a surrogate pair; otherwise it reads back as written. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("unicode")
    void stringsWithAnUnpairedSurrogateAreRefusedAndOthersReadBackUnchanged(String value) {
        String escaped = escape(value);
        Object outcome = outcome(() -> JSON.createReader(new StringReader("\"" + escaped + "\"")));
        if (HostileCorpus.hasLoneSurrogate(value)) {
            assertTrue(outcome instanceof String message && message.startsWith("A string holds an unpaired surrogate"), value + ": " + outcome);
        } else {
            assertEquals(value, ((JsonString) outcome).getString());
        }
    }

    static Stream<Arguments> unicode() {
        return GeneratedCases.cases(0x16b17L, 300,
                GeneratedCases.UTF16_EDGES.stream().map(s -> Arguments.of(GeneratedCases.named(s))).toList(),
                random -> Arguments.of(GeneratedCases.named(GeneratedCases.utf16Units(random, 20))));
    }

    /** Any document within the limits is read back exactly as the platform's own reader reads it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("documents")
    void documentsWithinTheLimitsReadAsThePlatformReadsThem(JsonValue value) {
        String text = value.toString();
        JsonValue platform;
        try (JsonReader reader = JsonProvider.provider().createReader(new StringReader(text))) {
            platform = reader.readValue();
        }
        assertEquals(platform, read(text));
    }

    /** Every kind of value, empty and nested containers among them. */
    static Stream<Arguments> documents() {
        var json = JsonProvider.provider();
        List<JsonValue> edges = List.of(json.createValue(""), json.createValue(new BigDecimal("1e30").setScale(6)),
                json.createValue(new BigDecimal("-1e30").setScale(6)), json.createValue(BigDecimal.ZERO.setScale(6)),
                JsonValue.TRUE, JsonValue.FALSE, JsonValue.NULL, JsonValue.EMPTY_JSON_ARRAY, JsonValue.EMPTY_JSON_OBJECT,
                json.createArrayBuilder().add(json.createArrayBuilder().add(json.createObjectBuilder())).build());
        return GeneratedCases.cases(0xd0cL, 200, edges.stream().map(BoundedJsonReaderTest::namedDocument).toList(),
                random -> namedDocument(document(random, 0)));
    }

    private static Arguments namedDocument(JsonValue value) {
        return Arguments.of(Named.of(GeneratedCases.shown(value.toString()), value));
    }

    /**
     * A string of up to 10 units (surrogates replaced), a number up to ±1e30 with six decimals, a literal, or, above
     * the fourth level, an array of up to 4 values or an object of up to 4 keys of up to 5 letters.
     */
    private static JsonValue document(Random random, int level) {
        var json = JsonProvider.provider();
        return switch (random.nextInt(level < 4 ? 5 : 3)) {
            case 0 -> json.createValue(GeneratedCases.utf16Units(random, 10).replaceAll("[\\ud800-\\udfff]", "x"));
            case 1 -> {
                BigInteger unscaled = new BigInteger(GeneratedCases.digits(random, '0', 1, 36));
                yield json.createValue(new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), 6));
            }
            case 2 -> List.of(JsonValue.TRUE, JsonValue.FALSE, JsonValue.NULL).get(random.nextInt(3));
            case 3 -> {
                var array = json.createArrayBuilder();
                for (int i = random.nextInt(0, 5); i > 0; i--) {
                    array.add(document(random, level + 1));
                }
                yield array.build();
            }
            default -> {
                var object = json.createObjectBuilder();
                for (int i = random.nextInt(0, 5); i > 0; i--) {
                    object.add(letters(random, 5), document(random, level + 1));
                }
                yield object.build();
            }
        };
    }

    private static String letters(Random random, int maxLength) {
        StringBuilder out = new StringBuilder();
        for (int i = random.nextInt(0, maxLength + 1); i > 0; i--) {
            int letter = random.nextInt(52);
            out.append((char) (letter < 26 ? 'a' + letter : 'A' + letter - 26));
        }
        return out.toString();
    }

    private static JsonValue read(String text) {
        try (JsonReader reader = JSON.createReader(new StringReader(text))) {
            return reader.readValue();
        }
    }

    /** The value read, or the refusal's message. */
    private static Object outcome(java.util.function.Supplier<JsonReader> readers) {
        try (JsonReader reader = readers.get()) {
            return reader.readValue();
        } catch (JsonParsingException e) {
            return e.getMessage();
        }
    }

    private static void assertOutcome(Document document, Object outcome) {
        if (document.refused()) {
            assertTrue(outcome instanceof String message && message.contains(document.refusal()),
                    document + " should be refused with '" + document.refusal() + "', got: " + excerpt(outcome));
        } else {
            assertTrue(outcome instanceof JsonValue value && value.getValueType().name().equalsIgnoreCase(document.topLevel()),
                    document + " should read as " + document.topLevel() + ", got: " + excerpt(outcome));
        }
    }

    private static String excerpt(Object outcome) {
        String text = String.valueOf(outcome);
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    private static String escape(String value) {
        StringBuilder out = new StringBuilder();
        for (char c : value.toCharArray()) {
            out.append(String.format("\\u%04x", (int) c));
        }
        return out.toString();
    }

}
