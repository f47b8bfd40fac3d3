package dev.switchboard.chat;

import dev.switchboard.audit.AuditConfig;
import dev.switchboard.audit.AuditLog;
import dev.switchboard.chat.events.ConversationEvents;
import dev.switchboard.audit.AuditTrail;
import dev.switchboard.knowledge.KnowledgeRetriever;
import dev.switchboard.llm.LlmClient;
import dev.switchboard.llm.LlmException;
import dev.switchboard.observability.TraceScope;
import dev.switchboard.platform.ApiError;
import dev.switchboard.platform.ApiException;
import dev.switchboard.policy.CallAdmission;
import dev.switchboard.policy.PolicyMetrics;
import dev.switchboard.policy.RateLimiter;
import dev.switchboard.policy.TenantPolicies;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.workspace.Workspace;
import dev.switchboard.workspace.Workspaces;
import jakarta.annotation.Resource;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Runs {@code /api/chat/completions}: prepares a run from the request, then answers it whole or as a stream. */
@ApplicationScoped
public class ChatService {

    private static final Logger LOG = Logger.getLogger(ChatService.class.getName());
    private static final LoopListener NO_EVENTS = new LoopListener() { };

    @Inject
    KnowledgeRetriever knowledge;

    @Inject
    LlmClient llm;

    @Inject
    AssistantTools assistantTools;

    @Inject
    ConversationStore store;

    @Inject
    Workspaces workspaces;

    @Inject
    ApprovalStore approvalStore;

    @Inject
    ApprovalSignals approvalSignals;

    @Inject
    RunLeases runLeases;

    @Inject
    ConversationEvents conversationEvents;

    @Inject
    ChatMetrics metrics;

    @Inject
    TenantPolicies policies;

    @Inject
    RateLimiter limiter;

    @Inject
    PolicyMetrics policyMetrics;

    @Inject
    AuditLog audit;

    @Inject
    AuditConfig auditConfig;

    @Resource
    ManagedThreadFactory threadFactory;

    /** How long a call that is not auto-approved waits for its confirm before it is cancelled. */
    @Inject
    @ConfigProperty(name = "switchboard.chat.approval-timeout", defaultValue = "PT5M")
    Duration approvalTimeout;

    /** How often a waiting run re-reads the database, where confirms made on other instances arrive. */
    @Inject
    @ConfigProperty(name = "switchboard.chat.approval-poll", defaultValue = "PT1S")
    Duration approvalPoll;

    @Inject
    @ConfigProperty(name = "switchboard.chat.max-tool-rounds", defaultValue = "20")
    int maxToolRounds;

    @Inject
    @ConfigProperty(name = "switchboard.chat.max-parallel-tools", defaultValue = "4")
    int maxParallelTools;

    @Inject
    @ConfigProperty(name = "switchboard.chat.tool-threads", defaultValue = "32")
    int toolThreads;

    private ExecutorService toolCalls;

    private ExecutorService streams;

    /**
     * Stores runs' turns beside their provider requests (see {@link #begin}). A few threads (the cores, at least two)
     * and a queue: a thread per store only made more threads compete for the CPU and the database's locks with the
     * requests whose first byte was being written (chat benchmark, 50 streams: first byte p50 128-277 ms with a thread
     * per store, 23-90 ms with two). A queued store belongs to a stream that is running, so the queue is bounded by them.
     */
    private ExecutorService storing;

    private CallAdmission admission;

    /**
     * Tool calls get threads of their own: on the container's shared executor, calls blocked on a backend would
     * starve the backend I/O that is to answer them (the shared pool is small on a small machine). When all are
     * busy, the request's own thread runs the call, which slows that run down but never deadlocks it.
     */
    @PostConstruct
    void start() {
        toolCalls = new ThreadPoolExecutor(0, toolThreads, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), threadFactory,
                new ThreadPoolExecutor.CallerRunsPolicy());
        streams = Executors.newCachedThreadPool(threadFactory);
        int storingThreads = Math.max(2, Runtime.getRuntime().availableProcessors());
        storing = new ThreadPoolExecutor(storingThreads, storingThreads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threadFactory);
        admission = new CallAdmission(limiter, policyMetrics);
    }

    @PreDestroy
    void stop() {
        toolCalls.shutdownNow();
        streams.shutdownNow();
        storing.shutdownNow();
    }

    /**
     * Runs a stream's writing on a thread of its own (idle ones are reused): a stream blocks its thread on the
     * provider for as long as the model talks, which the container's shared pool is not sized for.
     */
    void onStreamThread(Runnable writing) {
        streams.execute(writing);
    }

    PreparedRun prepare(CurrentUser user, ChatRequest request) {
        Workspace workspace = request.sessionId() == null ? null : workspaces.open(user.tenant(), user.subject(), request.sessionId());
        ChatSetup setup = assistantTools.setup(user, request.assistantId(), workspace);
        Map<String, McpTool> tools = new LinkedHashMap<>(setup.tools());
        if (workspace != null) {
            tools.putAll(BuiltInTools.tools());
        }
        String model = request.model() != null ? request.model() : setup.model() != null ? setup.model() : llm.defaultModel();
        JsonObject options = JSON.createObjectBuilder(request.options()).add("model", model).build();
        List<JsonObject> prompted = withSystemPrompt(request.messages(), setup.systemPrompt());
        List<JsonObject> messages = setup.knowledge()
                ? knowledge.contextMessage(user.tenant(), request.lastUserText()).map(context -> withKnowledge(prompted, context)).orElse(prompted)
                : prompted;
        ChatTurn turn = new ChatTurn(options, messages, request.tools(), tools, request.stream());
        List<ConversationStore.NewMessage> newMessages = request.newMessages().stream().map(message -> new ConversationStore.NewMessage(
                message.getString("role"), text(message.get("content")), message.getString("tool_call_id", null))).toList();
        ToolInvoker invoker = workspace == null ? setup.invoker() : BuiltInTools.invoker(workspace, setup.invoker());
        return new PreparedRun(CallerIdentity.of(user), setup.assistantId(), request.lastUserText(), newMessages, turn, invoker,
                governance(user), CompletionIdentity.next(model), request.sessionId(),
                workspace == null ? null : workspace.directory().toString(), request.includeUsage());
    }

    /** The run's tool calls pass the caller's tenant policy and are audited like the gateway's (see ToolCallGovernance). */
    private ToolCallGovernance governance(CurrentUser user) {
        return new ToolCallGovernance(CallerIdentity.of(user), user.clientId(), TraceScope.currentOrNew().traceId(),
                policies::of, admission, auditConfig.isEnabled() ? audit : AuditTrail.OFF);
    }

    /**
     * Starts storing the turn (one transaction, on a pooled thread) and builds the loop that fills in its assistant
     * message; the loop asks the provider at once, and waits for the stored turn only where it needs it (see
     * {@link RunRecorder}).
     */
    private StartedRun begin(PreparedRun run) {
        StoringTurn stored = StoringTurn.start(() -> store.begin(run.caller(), run.assistantId(), run.sessionId(), run.firstText(),
                run.newMessages()), storing, run.identity().id());
        StoredApprovals approvals = new StoredApprovals(approvalStore, approvalSignals, stored::messageId, approvalTimeout, approvalPoll,
                runLeases.lease());
        AgentLoop loop = new AgentLoop(llm, run.invoker(), toolCalls, maxParallelTools, maxToolRounds, approvals, run.governance());
        return new StartedRun(loop, stored);
    }

    private record StartedRun(AgentLoop loop, StoringTurn stored) {
    }

    /** What the loop of a run reports to: the recorder, then the conversation's watchers, then {@code next} (a stream). */
    private ToolCallBroadcast broadcast(StartedRun run, LoopListener next) {
        return new ToolCallBroadcast(conversationEvents, run.stored(), next);
    }

    /** Saves the end of the run, and tells the watchers what they have not heard of (calls handed back to the caller). */
    private void save(long messageId, ChatOutcome outcome, ToolCallBroadcast broadcast) {
        store.updateAssistant(messageId, outcome.content(), outcome.records(), outcome.finishReason());
        broadcast.catchUp(outcome.records());
    }

    JsonObject complete(PreparedRun prepared) {
        StartedRun run = begin(prepared);
        ToolCallBroadcast broadcast = broadcast(run, NO_EVENTS);
        long started = System.nanoTime();
        try {
            ChatOutcome outcome = run.loop().run(prepared.turn(), new RunRecorder(store, run.stored(), broadcast));
            ConversationStore.StoredRun stored = run.stored().get();
            save(stored.messageId(), outcome, broadcast);
            metrics.finished(outcome, since(started));
            return CompletionJson.completion(prepared.identity().storedAs(stored), outcome, prepared.sessionId(), prepared.workspacePath());
        } catch (LlmException e) {
            markFailed(run.stored());
            metrics.failed(e, since(started));
            throw LlmErrors.toApi(e);
        } catch (StoringTurn.NotStored e) {
            throw new ApiException(Response.Status.INTERNAL_SERVER_ERROR, "server_error", "internal_error", notSaved(e));
        }
    }

    /** A run that ended without an answer keeps what it had, marked so; a turn that was never stored has nothing to mark. */
    private void markFailed(StoringTurn turn) {
        try {
            store.markFailed(turn.messageId());
        } catch (StoringTurn.NotStored e) {
            LOG.fine(() -> "a failed chat run whose turn was not stored either: " + e.getMessage());
        }
    }

    /** A run whose stream's client left cancelled the calls that waited for approval: their watchers hear of it. */
    private void tellCancelledCalls(StoringTurn turn, ToolCallBroadcast broadcast) {
        try {
            broadcast.catchUp(approvalStore.toolCalls(turn.messageId()).values());
        } catch (StoringTurn.NotStored e) {
            LOG.fine(() -> "an abandoned chat run whose turn was not stored has no calls to tell of: " + e.getMessage());
        }
    }

    private static String notSaved(StoringTurn.NotStored e) {
        return "Internal error: the conversation could not be stored, so this answer is not saved (incident " + e.incident() + ")";
    }

    private static Duration since(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    /**
     * Writes a run as it happens, once the role chunk went out (on the request's thread: {@link ChatCompletionsServlet}).
     * Storing the turn runs beside the provider request (see {@link #begin}), so neither the first byte nor the first
     * content waits for the database. A turn that cannot be stored ends the stream with an error event where the run
     * first needs it (at the latest before the {@code done} event), never with an answer that looks saved.
     */
    void streamAfterRole(PreparedRun prepared, ChunkStream chunks) {
        StartedRun run = begin(prepared);
        StoringTurn stored = run.stored();
        LoopListener streaming = new LoopListener() {
            @Override
            public void onContent(String delta) {
                chunks.content(delta);
            }

            @Override
            public void onProviderWaiting() {
                chunks.flush();
            }

            @Override
            public void onApprovalsNeeded(List<ToolCallRecord> pending, List<ToolCallRecord> all, String content) {
                chunks.toolCalls(pending);
                pending.forEach(r -> chunks.toolCallUpdated(r, stored.messageId()));
            }

            @Override
            public void onAwaitingApproval() {
                chunks.keepAlive();
            }

            @Override
            public void onToolCalls(List<ToolCallRecord> invoking) {
                chunks.toolCalls(invoking);
                invoking.forEach(r -> chunks.toolCallUpdated(r, stored.messageId()));
            }

            @Override
            public void onToolResult(ToolCallRecord finished, String content) {
                chunks.toolResult(finished, content);
                chunks.toolCallUpdated(finished, stored.messageId());
            }
        };
        ToolCallBroadcast broadcast = broadcast(run, streaming);
        long started = System.nanoTime();
        try {
            ChatOutcome outcome = run.loop().run(prepared.turn(), new RunRecorder(store, stored, broadcast));
            ConversationStore.StoredRun ids = stored.get();
            save(ids.messageId(), outcome, broadcast);
            metrics.finished(outcome, since(started));
            if (!outcome.pendingCalls().isEmpty()) {
                chunks.pendingCalls(outcome.pendingCalls());
                outcome.records().stream().filter(r -> r.status() == ToolCallStatus.PENDING)
                        .forEach(r -> chunks.toolCallUpdated(r, ids.messageId()));
            }
            chunks.done(outcome.finishReason(), CompletionJson.toolExecution(outcome, prepared.sessionId(), prepared.workspacePath()), ids);
            if (prepared.includeUsage()) {
                chunks.usage(outcome.usage());
            }
        } catch (LlmException e) {
            markFailed(stored);
            metrics.failed(e, since(started));
            chunks.error(LlmErrors.body(e));
        } catch (StoringTurn.NotStored e) {
            chunks.error(ApiError.body(notSaved(e), "server_error", "internal_error"));
        } catch (UncheckedIOException e) {
            // the caller hung up; the run stops with it and the message says so
            markFailed(stored);
            tellCancelledCalls(stored, broadcast);
            metrics.abandoned(since(started));
            LOG.fine(() -> "chat stream " + prepared.identity().id() + " closed by the client");
            return;
        }
        chunks.end();
    }

    /** The assistant's prompt goes first unless the caller brought a system message of its own. */
    private static List<JsonObject> withSystemPrompt(List<JsonObject> messages, String systemPrompt) {
        boolean hasSystem = messages.stream().anyMatch(m -> "system".equals(m.getString("role")));
        if (systemPrompt == null || systemPrompt.isBlank() || hasSystem) {
            return messages;
        }
        List<JsonObject> withPrompt = new ArrayList<>();
        withPrompt.add(JSON.createObjectBuilder().add("role", "system").add("content", systemPrompt).build());
        withPrompt.addAll(messages);
        return withPrompt;
    }

    /**
     * RAG: the retrieved passages go in as a user message right before the last user message; they are the
     * retriever's words, not the user's, so they are sent to the model but not stored in the conversation.
     */
    private static List<JsonObject> withKnowledge(List<JsonObject> messages, String context) {
        int lastUser = -1;
        for (int i = 0; i < messages.size(); i++) {
            if ("user".equals(messages.get(i).getString("role", ""))) {
                lastUser = i;
            }
        }
        if (lastUser < 0) {
            return messages;
        }
        List<JsonObject> injected = new ArrayList<>(messages);
        injected.add(lastUser, JSON.createObjectBuilder().add("role", "user").add("content", context).build());
        return injected;
    }

    /** A message's content as stored: the text, or the JSON of content parts. */
    private static String text(JsonValue content) {
        if (content == null || content.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        return content instanceof JsonString s ? s.getString() : content.toString();
    }
}
