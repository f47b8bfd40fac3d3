package dev.switchboard.platform.json;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonMergePatch;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonPatch;
import jakarta.json.JsonPatchBuilder;
import jakarta.json.JsonPointer;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.JsonWriterFactory;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonGeneratorFactory;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;

/**
 * The process's JSON-P provider: the platform's own (Parsson) for building and writing, but every reader it makes
 * reads under {@link JsonLimits} ({@link BoundedJsonReader}) and every parser under Parsson's limits set to the same
 * values. Whoever reads JSON through it, whatever the transport, is bounded; there is no second reading path to
 * forget. Bytes are decoded as strict UTF-8 (RFC 8259 section 8.1): invalid bytes are refused, not replaced.
 */
public final class BoundedJsonProvider extends JsonProvider {

    private final JsonProvider platform;
    private final JsonLimits limits;
    private final JsonParserFactory parsers;

    public BoundedJsonProvider(JsonProvider platform, JsonLimits limits) {
        this.platform = platform;
        this.limits = limits;
        this.parsers = platform.createParserFactory(limits.parssonConfig());
    }

    public JsonLimits limits() {
        return limits;
    }

    @Override
    public JsonReader createReader(Reader reader) {
        return new BoundedJsonReader(parsers.createParser(reader), platform, limits);
    }

    @Override
    public JsonReader createReader(InputStream in) {
        return createReader(strictUtf8(in));
    }

    @Override
    public JsonReaderFactory createReaderFactory(Map<String, ?> config) {
        return new JsonReaderFactory() {
            @Override
            public JsonReader createReader(Reader reader) {
                return BoundedJsonProvider.this.createReader(reader);
            }

            @Override
            public JsonReader createReader(InputStream in) {
                return BoundedJsonProvider.this.createReader(in);
            }

            @Override
            public JsonReader createReader(InputStream in, Charset charset) {
                return BoundedJsonProvider.this.createReader(new InputStreamReader(in, charset));
            }

            @Override
            public Map<String, ?> getConfigInUse() {
                return parsers.getConfigInUse();
            }
        };
    }

    @Override
    public JsonParser createParser(Reader reader) {
        return parsers.createParser(reader);
    }

    @Override
    public JsonParser createParser(InputStream in) {
        return parsers.createParser(strictUtf8(in));
    }

    /** Parsers under the same limits, whatever configuration the caller passes. */
    @Override
    public JsonParserFactory createParserFactory(Map<String, ?> config) {
        return parsers;
    }

    private static Reader strictUtf8(InputStream in) {
        return new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT));
    }

    // Everything below is the platform's, unchanged.

    @Override
    public JsonGenerator createGenerator(Writer writer) {
        return platform.createGenerator(writer);
    }

    @Override
    public JsonGenerator createGenerator(OutputStream out) {
        return platform.createGenerator(out);
    }

    @Override
    public JsonGeneratorFactory createGeneratorFactory(Map<String, ?> config) {
        return platform.createGeneratorFactory(config);
    }

    @Override
    public JsonWriter createWriter(Writer writer) {
        return platform.createWriter(writer);
    }

    @Override
    public JsonWriter createWriter(OutputStream out) {
        return platform.createWriter(out);
    }

    @Override
    public JsonWriterFactory createWriterFactory(Map<String, ?> config) {
        return platform.createWriterFactory(config);
    }

    @Override
    public JsonObjectBuilder createObjectBuilder() {
        return platform.createObjectBuilder();
    }

    @Override
    public JsonObjectBuilder createObjectBuilder(JsonObject object) {
        return platform.createObjectBuilder(object);
    }

    @Override
    public JsonObjectBuilder createObjectBuilder(Map<String, ?> map) {
        return platform.createObjectBuilder(map);
    }

    @Override
    public JsonArrayBuilder createArrayBuilder() {
        return platform.createArrayBuilder();
    }

    @Override
    public JsonArrayBuilder createArrayBuilder(JsonArray array) {
        return platform.createArrayBuilder(array);
    }

    @Override
    public JsonArrayBuilder createArrayBuilder(Collection<?> collection) {
        return platform.createArrayBuilder(collection);
    }

    @Override
    public JsonBuilderFactory createBuilderFactory(Map<String, ?> config) {
        return platform.createBuilderFactory(config);
    }

    @Override
    public JsonPointer createPointer(String pointer) {
        return platform.createPointer(pointer);
    }

    @Override
    public JsonPatchBuilder createPatchBuilder() {
        return platform.createPatchBuilder();
    }

    @Override
    public JsonPatchBuilder createPatchBuilder(JsonArray array) {
        return platform.createPatchBuilder(array);
    }

    @Override
    public JsonPatch createPatch(JsonArray array) {
        return platform.createPatch(array);
    }

    @Override
    public JsonPatch createDiff(JsonStructure source, JsonStructure target) {
        return platform.createDiff(source, target);
    }

    @Override
    public JsonMergePatch createMergePatch(JsonValue patch) {
        return platform.createMergePatch(patch);
    }

    @Override
    public JsonMergePatch createMergeDiff(JsonValue source, JsonValue target) {
        return platform.createMergeDiff(source, target);
    }

    @Override
    public JsonString createValue(String value) {
        return platform.createValue(value);
    }

    @Override
    public JsonNumber createValue(int value) {
        return platform.createValue(value);
    }

    @Override
    public JsonNumber createValue(long value) {
        return platform.createValue(value);
    }

    @Override
    public JsonNumber createValue(double value) {
        return platform.createValue(value);
    }

    @Override
    public JsonNumber createValue(BigDecimal value) {
        return platform.createValue(value);
    }

    @Override
    public JsonNumber createValue(BigInteger value) {
        return platform.createValue(value);
    }

    @Override
    public JsonNumber createValue(Number value) {
        return platform.createValue(value);
    }
}
