package dev.switchboard.llm;

import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.platform.json.HostileCorpus;
import dev.switchboard.platform.json.HostileCorpus.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An LLM provider is not trusted: each hostile document of the corpus as a blocking completion and as a stream chunk
 * is refused as malformed, with the reader's reason in the message, at a bounded cost.
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

    private static void assertRefused(Document document, LlmException e, String what) {
        assertEquals(LlmException.Kind.MALFORMED, e.kind(), e.getMessage());
        String expected = document.refused() ? document.refusal() : "Expected a JSON object, got ";
        assertTrue(e.getMessage().startsWith("The LLM provider sent " + what + " that is not a JSON object (")
                && e.getMessage().contains(expected), e.getMessage());
    }
}
