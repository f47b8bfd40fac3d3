package dev.switchboard.platform.json;

import dev.switchboard.platform.json.HostileCorpus.Document;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParsingException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one bounded reading path: every known-bad document of the corpus is refused with a message that says why (or
 * read, when only its top-level type is wrong), at a bounded cost; and, as properties over generated documents,
 * limits hold exactly at their edges while every document within them reads back unchanged.
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
    @Property(tries = 300)
    void numbersAreReadExactlyOrRefusedAsOutOfRange(@ForAll("digits") String digits, @ForAll("exponents") long exponent)
            throws Exception {
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

    @Provide
    Arbitrary<String> digits() {
        return Arbitraries.strings().withCharRange('0', '9').ofMinLength(1).ofMaxLength(40)
                .filter(s -> s.length() == 1 || s.charAt(0) != '0');
    }

    @Provide
    Arbitrary<Long> exponents() {
        return Arbitraries.oneOf(Arbitraries.longs().between(-1100, 1100), Arbitraries.longs().between(-20_000_000_000L, 20_000_000_000L));
    }

    /** Nesting is read up to the limit and refused one level beyond it, whatever mix of arrays and objects. */
    @Property(tries = 40)
    void nestingIsReadUpToTheLimitAndRefusedBeyond(@ForAll("depths") int depth, @ForAll long shape) {
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
            assertTrue(outcome instanceof JsonValue, depth + ": " + outcome);
        } else {
            assertTrue(outcome instanceof String message && message.startsWith("The JSON text is nested deeper than 1000 levels"), depth + ": " + outcome);
        }
    }

    /** Any depth, and often the ones at the limit, where an off-by-one would show. */
    @Provide
    Arbitrary<Integer> depths() {
        return Arbitraries.oneOf(Arbitraries.integers().between(1, 3000),
                Arbitraries.integers().between(JsonLimits.DEFAULTS.maxDepth() - 2, JsonLimits.DEFAULTS.maxDepth() + 2));
    }

    /** A string is refused exactly when it holds half a surrogate pair; otherwise it reads back as written. */
    @Property(tries = 300)
    void stringsWithAnUnpairedSurrogateAreRefusedAndOthersReadBackUnchanged(@ForAll("unicode") String value) {
        String escaped = escape(value);
        Object outcome = outcome(() -> JSON.createReader(new StringReader("\"" + escaped + "\"")));
        if (HostileCorpus.hasLoneSurrogate(value)) {
            assertTrue(outcome instanceof String message && message.startsWith("A string holds an unpaired surrogate"), value + ": " + outcome);
        } else {
            assertEquals(value, ((JsonString) outcome).getString());
        }
    }

    @Provide
    Arbitrary<String> unicode() {
        return Arbitraries.strings().withCharRange('\u0000', '\uffff').ofMaxLength(20);
    }

    /** Any document within the limits is read back exactly as the platform's own reader reads it. */
    @Property(tries = 200)
    void documentsWithinTheLimitsReadAsThePlatformReadsThem(@ForAll("documents") JsonValue value) {
        String text = value.toString();
        JsonValue platform;
        try (JsonReader reader = JsonProvider.provider().createReader(new StringReader(text))) {
            platform = reader.readValue();
        }
        assertEquals(platform, read(text));
    }

    @Provide
    Arbitrary<JsonValue> documents() {
        return Arbitraries.lazyOf(
                () -> Arbitraries.strings().ofMaxLength(10).map(s -> (JsonValue) JsonProvider.provider().createValue(s.replaceAll("[\\ud800-\\udfff]", "x"))),
                () -> Arbitraries.bigDecimals().between(new BigDecimal("-1e30"), new BigDecimal("1e30")).ofScale(6)
                        .map(d -> (JsonValue) JsonProvider.provider().createValue(d)),
                () -> Arbitraries.of(JsonValue.TRUE, JsonValue.FALSE, JsonValue.NULL),
                () -> documents().list().ofMaxSize(4).map(list -> {
                    var array = JsonProvider.provider().createArrayBuilder();
                    list.forEach(array::add);
                    return (JsonValue) array.build();
                }),
                () -> Arbitraries.maps(Arbitraries.strings().alpha().ofMaxLength(5), documents()).ofMaxSize(4).map(map -> {
                    var object = JsonProvider.provider().createObjectBuilder();
                    map.forEach(object::add);
                    return (JsonValue) object.build();
                }));
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
