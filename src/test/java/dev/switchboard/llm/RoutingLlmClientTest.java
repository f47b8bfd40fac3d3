package dev.switchboard.llm;

import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Models go to their providers: exact names, prefixes, and the default for the rest. */
class RoutingLlmClientTest {

    static ScriptedProvider ollama;
    static ScriptedProvider ark;
    static ScriptedProvider openai;
    static ExecutorService executor;
    static ScheduledExecutorService deadlines;
    static RoutingLlmClient router;

    @BeforeAll
    static void start() {
        ollama = ScriptedProvider.start(0);
        ark = ScriptedProvider.start(0);
        openai = ScriptedProvider.start(0);
        executor = Executors.newCachedThreadPool();
        deadlines = Executors.newSingleThreadScheduledExecutor();
        router = new RoutingLlmClient(client(openai, "gpt-4o-mini"), List.of(
                new ModelRoute("llama3.2", client(ollama, "llama3.2")),
                new ModelRoute("doubao-*", client(ark, "doubao-pro"))));
    }

    @AfterAll
    static void stop() {
        ollama.close();
        ark.close();
        openai.close();
        executor.shutdownNow();
        deadlines.shutdownNow();
    }

    static OpenAiCompatibleClient client(ScriptedProvider provider, String model) {
        return new OpenAiCompatibleClient(new LlmSettings(URI.create(provider.baseUrl()), "", model, Duration.ofSeconds(2),
                Duration.ofSeconds(5)), executor, deadlines);
    }

    static JsonObject ask(String model, Script script) {
        var body = Json.createObjectBuilder().add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("role", "user").add("content", "hi " + script.key())));
        if (model != null) {
            body.add("model", model);
        }
        return body.build();
    }

    @Test
    void eachModelReachesItsProvider() throws LlmException {
        Script local = ollama.script(Reply.text("from ollama"));
        Script volc = ark.script(Reply.text("from ark"));
        Script fallback = openai.script(Reply.text("from openai"), Reply.text("default model"));
        assertEquals("from ollama", router.complete(ask("llama3.2", local)).content());
        assertEquals("from ark", router.stream(ask("doubao-1.5-pro-32k", volc), d -> { }).content());
        assertEquals("from openai", router.complete(ask("gpt-4o", fallback)).content());
        assertEquals("default model", router.complete(ask(null, fallback)).content());
        assertEquals("gpt-4o-mini", fallback.requests().get(1).getString("model"));
        assertEquals("gpt-4o-mini", router.defaultModel());
    }
}
