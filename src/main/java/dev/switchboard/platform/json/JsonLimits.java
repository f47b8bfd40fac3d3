package dev.switchboard.platform.json;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Map;
import java.util.Optional;

/**
 * What one JSON text may hold before Switchboard refuses to read it. Every JSON text from outside (request bodies,
 * MCP messages from clients and backends, the query dialect, LLM replies and stream chunks) is read under these
 * limits, so a short hostile document cannot cost more than reading it: a number is refused when its exponent would
 * make it expensive to expand ({@code 1e9000000} is 9 characters but 9 million digits in plain notation).
 *
 * @param maxDepth         arrays and objects nested inside each other, the outermost counting 1
 * @param maxNumberLength  characters of one number's text
 * @param maxNumberScale   the largest power of ten a number's last digit may stand for, either way: {@code 1e1000}
 *                         and {@code 1e-1000} are at 1000
 * @param maxStringLength  characters of one string value
 * @param maxKeyLength     characters of one object key
 * @param maxKeys          keys of one object
 */
public record JsonLimits(int maxDepth, int maxNumberLength, int maxNumberScale, int maxStringLength, int maxKeyLength,
                         int maxKeys) {

    /** Parsson's own depth and number-length defaults, so nothing stored under the earlier reader becomes unreadable. */
    public static final JsonLimits DEFAULTS = new JsonLimits(1000, 1100, 1000, 16 * 1024 * 1024, 4096, 10_000);

    private static final String PREFIX = "switchboard.json.";

    public JsonLimits {
        for (int limit : new int[] {maxDepth, maxNumberLength, maxNumberScale, maxStringLength, maxKeyLength, maxKeys}) {
            if (limit < 1) {
                throw new IllegalArgumentException("JSON limits must be positive: " + limit);
            }
        }
    }

    /**
     * The limits as configured ({@code switchboard.json.max-depth}, {@code max-number-length},
     * {@code max-number-scale}, {@code max-string-length}, {@code max-key-length}, {@code max-keys}), each falling
     * back to its default. Read once when the process's JSON provider is made, which can be before CDI runs (or
     * outside any server, in a unit test): without a MicroProfile Config implementation the defaults apply.
     */
    public static JsonLimits configured() {
        Config config;
        try {
            config = ConfigProvider.getConfig();
        } catch (IllegalStateException | LinkageError e) {
            return DEFAULTS;
        }
        return new JsonLimits(
                value(config, "max-depth", DEFAULTS.maxDepth),
                value(config, "max-number-length", DEFAULTS.maxNumberLength),
                value(config, "max-number-scale", DEFAULTS.maxNumberScale),
                value(config, "max-string-length", DEFAULTS.maxStringLength),
                value(config, "max-key-length", DEFAULTS.maxKeyLength),
                value(config, "max-keys", DEFAULTS.maxKeys));
    }

    private static int value(Config config, String key, int fallback) {
        Optional<Integer> value = config.getOptionalValue(PREFIX + key, Integer.class);
        return value.orElse(fallback);
    }

    /**
     * Parsson's own settings for the same limits, a second line behind the checks of {@link BoundedJsonReader}: its
     * depth beyond the reader's own (Parsson counts differently) so that the reader's clearer message is the one a caller sees.
     */
    Map<String, Object> parssonConfig() {
        return Map.of(
                "org.eclipse.parsson.maxDepth", maxDepth + 2,
                "org.eclipse.parsson.maxBigDecimalLength", maxNumberLength,
                "org.eclipse.parsson.maxBigIntegerScale", maxNumberScale,
                "org.eclipse.parsson.rejectDuplicateKeys", true);
    }
}
