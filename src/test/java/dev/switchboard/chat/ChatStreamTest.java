package dev.switchboard.chat;

import dev.switchboard.llm.LlmException;
import dev.switchboard.llm.LlmSettings;
import dev.switchboard.llm.OpenAiCompatibleClient;
import dev.switchboard.llm.ScriptedProvider;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.security.CallerIdentity;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.ScheduledExecutorService;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a stream and the storing of its turn go together: the provider is asked while the turn is being stored, and a
 * turn that cannot be stored ends the stream with an error instead of an answer that looks saved.
 */
class ChatStreamTest {

    static ScriptedProvider provider;
    static ExecutorService executor;
    static ScheduledExecutorService deadlines;
    static OpenAiCompatibleClient llm;

    ChatService chat;

    @BeforeAll
    static void start() {
        provider = ScriptedProvider.start(0);
        executor = Executors.newCachedThreadPool();
        deadlines = Executors.newSingleThreadScheduledExecutor();
        llm = new OpenAiCompatibleClient(new LlmSettings(URI.create(provider.baseUrl()), "", "m", Duration.ofSeconds(2),
                Duration.ofSeconds(5)), executor, deadlines);
    }

    @AfterAll
    static void stop() {
        provider.close();
        executor.shutdownNow();
        deadlines.shutdownNow();
    }

    @AfterEach
    void stopService() {
        if (chat != null) {
            chat.stop();
        }
    }

    /** Keeps what the run saves in memory; {@link #begin} is the test's. */
    abstract static class MemoryStore extends ConversationStore {
        final List<String> saved = new CopyOnWriteArrayList<>();

        @Override
        public void updateAssistant(long messageId, String content, List<ToolCallRecord> records, String finishReason) {
            saved.add(messageId + ":" + content + ":" + finishReason);
        }

        @Override
        public void markFailed(long messageId) {
            saved.add(messageId + ":failed");
        }
    }

    void service(ConversationStore store) {
        chat = new ChatService();
        chat.llm = llm;
        chat.store = store;
        chat.metrics = new ChatMetrics() {
            @Override
            void finished(ChatOutcome outcome, Duration duration) {
            }

            @Override
            void failed(LlmException e, Duration duration) {
            }

            @Override
            void abandoned(Duration duration) {
            }
        };
        chat.threadFactory = new ManagedThreadFactory() {
            @Override
            public Thread newThread(Runnable task) {
                return new Thread(task, "chat-test");
            }

            @Override
            public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
                return ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            }
        };
        chat.toolThreads = 4;
        chat.maxParallelTools = 4;
        chat.maxToolRounds = 5;
        chat.approvalTimeout = Duration.ofSeconds(5);
        chat.approvalPoll = Duration.ofSeconds(1);
        RunLeases leases = new RunLeases();
        leases.length = Duration.ofSeconds(30);
        chat.runLeases = leases;
        chat.start();
    }

    /** A streamed run without an assistant (no tools), as {@code prepare} makes it. */
    static PreparedRun run(Script script) {
        var user = Json.createObjectBuilder().add("role", "user").add("content", "go " + script.key()).build();
        ChatTurn turn = new ChatTurn(Json.createObjectBuilder().add("model", "m").build(), List.of(user), List.of(), Map.of(), true);
        return new PreparedRun(new CallerIdentity("alice", "default", Set.of()), null, "go", List.of(new ConversationStore.NewMessage("user",
                "go " + script.key(), null)), turn, ChatSetup.NONE.invoker(), null, CompletionIdentity.next("m"), null, null, false);
    }

    String stream(PreparedRun run) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // as ChatCompletionsServlet does: the role chunk, then the run
        ChunkStream chunks = new ChunkStream(out, run.identity());
        chunks.role();
        chat.streamAfterRole(run, chunks);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theProviderIsAskedWhileTheTurnIsBeingStored() {
        Script script = provider.script(Reply.text("stored meanwhile"));
        List<Boolean> askedBeforeCommit = new CopyOnWriteArrayList<>();
        MemoryStore store = new MemoryStore() {
            @Override
            public StoredRun begin(CallerIdentity caller, Long assistantId, String sessionId, String firstText, List<NewMessage> newMessages) {
                // a commit that only finishes once the provider has the request: sequential storing would wait here in vain
                Instant deadline = Instant.now().plusSeconds(5);
                while (script.requests().isEmpty() && Instant.now().isBefore(deadline)) {
                    Thread.onSpinWait();
                }
                askedBeforeCommit.add(!script.requests().isEmpty());
                return new StoredRun(41, 42);
            }
        };
        service(store);

        String events = stream(run(script));

        assertEquals(List.of(true), askedBeforeCommit, "the provider had the request before the turn was committed");
        assertTrue(events.contains("\"type\":\"done\"") && events.contains("\"conversation_id\":41") && events.contains("\"message_id\":42"),
                events);
        assertTrue(events.endsWith("data: [DONE]\n\n"), events);
        assertEquals(List.of("42:stored meanwhile:stop"), store.saved, "saved once, at the end");
    }

    @Test
    void aTurnThatCannotBeStoredEndsTheStreamWithAnErrorNotAnAnswer() {
        Script script = provider.script(Reply.text("never saved"));
        MemoryStore store = new MemoryStore() {
            @Override
            public StoredRun begin(CallerIdentity caller, Long assistantId, String sessionId, String firstText, List<NewMessage> newMessages) {
                throw new IllegalStateException("the database is gone");
            }
        };
        service(store);

        String events = stream(run(script));

        assertTrue(events.startsWith("data: {") && events.contains("\"role\":\"assistant\""), "the stream began: " + events);
        assertTrue(events.contains("{\"error\":{\"message\":\"Internal error: the conversation could not be stored, so this answer "
                + "is not saved (incident "), events);
        assertTrue(events.contains("\"code\":\"internal_error\""), events);
        assertFalse(events.contains("\"type\":\"done\""), "no answer that looks finished and saved: " + events);
        assertFalse(events.contains("the database is gone"), "internals stay in the log");
        assertTrue(events.endsWith("data: [DONE]\n\n"), events);
        assertEquals(List.of(), store.saved, "nothing to update or mark");
    }
}
