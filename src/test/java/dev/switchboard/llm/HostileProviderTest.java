package dev.switchboard.llm;

import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.platform.json.GeneratedCases;
import dev.switchboard.platform.json.HostileCorpus;
import dev.switchboard.platform.json.HostileCorpus.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An LLM provider is not trusted: each hostile document of the corpus as a blocking completion and as a stream chunk
 * is refused as malformed, with the reader's reason in the message, at a bounded cost. The numbers the client acts on
 * (a streamed tool call's {@code index}, the usage counts) are tried with generated values of any size and exponent
 * ({@link GeneratedCases}): each is taken exactly or refused, never as its low bits, and never makes the client build
 * what the number says (an index of two billion is not two billion calls).
 */
class HostileProviderTest {

    static ScriptedProvider provider;
    static OpenAiCompatibleClient client;

    @BeforeAll
    static void start() {
        OpenAiCompatibleClientTest.start();
        provider = OpenAiCompatibleClientTest.provider;
        client = OpenAiCompatibleClientTest.client;
    }

    @AfterAll
    static void stop() {
        OpenAiCompatibleClientTest.stop();
    }

    static List<Document> corpus() {
        return HostileCorpus.text().stream().filter(d -> !d.name().equals("long-string")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void aHostileCompletionIsMalformedWithTheReason(Document document) throws Exception {
        Script script = provider.script(Reply.raw(200, "application/json", document.text()));
        var measured = HostileCorpus.cpu(() -> assertThrows(LlmException.class,
                () -> client.complete(OpenAiCompatibleClientTest.ask(script))));
        assertRefused(document, measured.value(), "a completion");
        assertTrue(measured.cpuNanos() < HostileCorpus.CPU_BOUND_NANOS, document + " cost " + measured.cpuNanos() / 1_000_000 + " ms");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void aHostileStreamChunkIsMalformedWithTheReason(Document document) throws Exception {
        String chunk = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"}}]}\n\ndata: " + document.text() + "\n\n";
        Script script = provider.script(Reply.raw(200, "text/event-stream", chunk));
        var measured = HostileCorpus.cpu(() -> assertThrows(LlmException.class,
                () -> client.stream(OpenAiCompatibleClientTest.ask(script), delta -> { })));
        assertRefused(document, measured.value(), "a stream chunk");
        assertTrue(measured.cpuNanos() < HostileCorpus.CPU_BOUND_NANOS, document + " cost " + measured.cpuNanos() / 1_000_000 + " ms");
    }

    /** Numbers of every shape: whole and not, negative, around the int and long ranges, and beyond the reader's limits. */
    static Stream<Arguments> numbers() {
        List<Arguments> edges = Stream.of("0", "1", "255", "256", "-1", "2147483647", "2147483648", "2000000000", "4294967296",
                        "9223372036854775807", "18446744073709551616", "1099511627776", "1099511627777", "0.0", "1.5", "1e2",
                        "1e999", "1e1001", "-1e-999", "\"3\"", "null")
                .map(Arguments::of).toList();
        return GeneratedCases.cases(0x11a3L, 150, edges, HostileProviderTest::generatedNumber);
    }

    private static Arguments generatedNumber(Random random) {
        String digits = GeneratedCases.digits(random, '0', 1, 25);
        String sign = random.nextInt(4) == 0 ? "-" : "";
        return Arguments.of(sign + digits + (random.nextBoolean() ? "" : "e" + GeneratedCases.exponent(random, 5000)));
    }

    @ParameterizedTest(name = "index {0}")
    @MethodSource("numbers")
    void aStreamedToolCallsIndexIsTakenExactlyOrRefused(String index) throws Exception {
        String chunk = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":" + index
                + ",\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n"
                + "data: [DONE]\n\n";
        Script script = provider.script(Reply.raw(200, "text/event-stream", chunk));
        var measured = HostileCorpus.cpu(() -> {
            try {
                return client.stream(OpenAiCompatibleClientTest.ask(script), delta -> { }).toolCalls().size() + " call(s)";
            } catch (LlmException e) {
                return e.kind() + " " + e.getMessage();
            }
        });
        BigInteger whole = wholeNumber(index);
        boolean noNumber = index.startsWith("\"") || index.equals("null"); // no index: the call goes by its id
        String expected = !readable(index) ? "MALFORMED The LLM provider sent a stream chunk that is not a JSON object ("
                : noNumber ? "1 call(s)"
                : whole == null || whole.signum() < 0 || whole.compareTo(BigInteger.valueOf(StreamAssembler.MAX_TOOL_CALLS)) >= 0
                ? "MALFORMED The LLM provider sent a tool-call fragment whose index"
                : whole.signum() == 0 ? "1 call(s)"
                : "MALFORMED The LLM provider streamed a tool call without a function name"; // the calls before it have none
        assertTrue(measured.value().startsWith(expected), index + ": " + measured.value());
        assertTrue(measured.cpuNanos() < HostileCorpus.CPU_BOUND_NANOS, index + " cost " + measured.cpuNanos() / 1_000_000 + " ms");
    }

    @ParameterizedTest(name = "prompt_tokens {0}")
    @MethodSource("numbers")
    void aUsageCountIsTakenExactlyOrIsZero(String count) throws Exception {
        String body = "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":" + count + ",\"completion_tokens\":2}}";
        Script script = provider.script(Reply.raw(200, "application/json", body));
        if (!readable(count)) {
            LlmException e = assertThrows(LlmException.class, () -> client.complete(OpenAiCompatibleClientTest.ask(script)));
            assertEquals(LlmException.Kind.MALFORMED, e.kind(), e.getMessage());
            return;
        }
        Usage usage = client.complete(OpenAiCompatibleClientTest.ask(script)).usage();
        BigInteger whole = wholeNumber(count);
        long expected = whole != null && whole.signum() >= 0 && whole.compareTo(BigInteger.valueOf(Usage.MAX_COUNT)) <= 0
                ? whole.longValueExact() : 0;
        assertEquals(new Usage(expected, 2, expected + 2), usage, count);
    }

    /** Whether the reader takes the number at all: an exponent within its scale limit (1000). */
    private static boolean readable(String value) {
        if (!Character.isDigit(value.charAt(value.length() - 1)) || value.startsWith("\"")) {
            return true; // null, a string
        }
        int e = value.indexOf('e');
        if (e >= 0 && Math.abs(Long.parseLong(value.substring(e + 1))) >= Integer.MAX_VALUE - 100) {
            return false;
        }
        return Math.abs((long) new BigDecimal(value).scale()) <= 1000;
    }

    /** The number when JSON-P calls it integral (scale 0: no fraction, no exponent), else null. */
    private static BigInteger wholeNumber(String value) {
        if (value.startsWith("\"") || value.equals("null")) {
            return null;
        }
        BigDecimal decimal = new BigDecimal(value);
        return decimal.scale() == 0 ? decimal.toBigIntegerExact() : null;
    }

    private static void assertRefused(Document document, LlmException e, String what) {
        assertEquals(LlmException.Kind.MALFORMED, e.kind(), e.getMessage());
        String expected = document.refused() ? document.refusal() : "Expected a JSON object, got ";
        assertTrue(e.getMessage().startsWith("The LLM provider sent " + what + " that is not a JSON object (")
                && e.getMessage().contains(expected), e.getMessage());
    }
}
