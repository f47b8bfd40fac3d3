package dev.switchboard.platform.json;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The known-bad JSON documents of {@code src/test/resources/hostile-json/corpus.json}, built from their recipes (a
 * million digits or 100,000 brackets are not worth storing as files). bench/hostile.mjs reads the same file.
 */
public final class HostileCorpus {

    /** A generous bound on one hostile document's CPU cost in a test: it catches the pathological case, not drift. */
    public static final long CPU_BOUND_NANOS = 1_000_000_000L;

    /**
     * @param refusal  a fragment of the message the JSON reader refuses it with, or null when the reader accepts it
     * @param topLevel the type of the top-level value when accepted
     * @param bytesOnly only readers of bytes can see it (text transports decode it before Switchboard reads)
     */
    public record Document(String name, byte[] bytes, String refusal, String topLevel, boolean bytesOnly) {

        public String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        public boolean refused() {
            return refusal != null;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<Document> DOCUMENTS = load();

    private HostileCorpus() {
    }

    public static List<Document> all() {
        return DOCUMENTS;
    }

    /** The documents a text transport (a WebSocket text frame, a line of text) can carry. */
    public static List<Document> text() {
        return DOCUMENTS.stream().filter(d -> !d.bytesOnly()).toList();
    }

    public static Document named(String name) {
        return DOCUMENTS.stream().filter(d -> d.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no hostile document " + name));
    }

    /** Runs the action on this thread and returns the CPU time it took, in nanoseconds. */
    public static <T> Measured<T> cpu(Callable<T> action) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        T value = action.call();
        return new Measured<>(value, threads.getCurrentThreadCpuTime() - start);
    }

    public record Measured<T>(T value, long cpuNanos) {
    }

    /** Whether the text holds half of a surrogate pair: what the reader refuses in a string. */
    public static boolean hasLoneSurrogate(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** CPU time of the whole process so far, in nanoseconds: for work done on threads other than the test's. */
    public static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static List<Document> load() {
        // read with the platform's plain provider: the corpus itself is not hostile, and must not depend on the code under test
        try (InputStream in = HostileCorpus.class.getResourceAsStream("/hostile-json/corpus.json");
             JsonReader reader = Json.createReader(in)) {
            return reader.readObject().getJsonArray("documents").stream().map(JsonObject.class::cast)
                    .map(HostileCorpus::document).toList();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the hostile JSON corpus", e);
        }
    }

    private static Document document(JsonObject recipe) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (JsonValue value : recipe.getJsonArray("parts")) {
            JsonObject part = (JsonObject) value;
            if (part.containsKey("hex")) {
                out.writeBytes(HexFormat.of().parseHex(part.getString("hex")));
                continue;
            }
            String text = part.getString("text");
            int times = part.getInt("times", 1);
            boolean numbered = part.getBoolean("number", false);
            for (int i = 0; i < times; i++) {
                out.writeBytes((numbered ? text.replace("#", Integer.toString(i)) : text).getBytes(StandardCharsets.UTF_8));
            }
        }
        return new Document(recipe.getString("name"), out.toByteArray(),
                recipe.get("refusal") instanceof JsonString s ? s.getString() : null,
                recipe.getString("topLevel", null), recipe.getBoolean("bytesOnly", false));
    }
}
