package dev.switchboard.chat;

import dev.switchboard.audit.AuditOutcome;
import dev.switchboard.audit.AuditUnavailableException;
import dev.switchboard.backend.access.BackendFailures;
import dev.switchboard.llm.LlmClient;
import dev.switchboard.llm.LlmException;
import dev.switchboard.llm.LlmReply;
import dev.switchboard.llm.StreamListener;
import dev.switchboard.llm.ToolCall;
import dev.switchboard.llm.Usage;
import dev.switchboard.mcp.JsonRpcErrorCodes;
import dev.switchboard.mcp.McpException;
import dev.switchboard.policy.CallAdmission;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The agent loop: ask the LLM, run the tool calls it makes, give it the results, ask again, until it answers
 * in plain text or the round limit is reached; at the limit one last call without tools gets an answer.
 * <p>
 * A round runs on the server when every call in it is <em>server-run</em>: a tool of the assistant (or a built-in
 * one) that no caller tool shadows, or (when the caller brought no tools of its own) a name no tool has, answered
 * {@code tool_not_found}. Otherwise the whole round goes back to the caller as {@code tool_calls} (manual mode), so
 * the caller's history stays complete: every call of that assistant message is the caller's to answer.
 * <p>
 * In a server-run round, auto-approved calls start at once; the others are shown as {@code pending} and wait for
 * {@link ToolApprovals}: approved ones then run (with the user's edited arguments, if any), refused or timed-out
 * ones go back to the LLM as a refusal instead of a result.
 */
public final class AgentLoop {

    static final String ROUND_LIMIT_NOTE = "The limit of %d tool-call rounds is reached. Do not call tools any more: "
            + "answer now with what you have, and say that you stopped because of the limit.";

    private final LlmClient llm;
    private final ToolInvoker invoker;
    private final Executor executor;
    private final int maxParallel;
    private final int maxRounds;
    private final ToolApprovals approvals;
    private final ToolCallGovernance governance;

    /**
     * @param executor    runs the calls of one round side by side
     * @param maxParallel at most this many calls of one round run at once
     * @param approvals   decides the calls that are not auto-approved
     * @param governance  the tenant's policy every call must pass, and the audit trail every call is reported to
     */
    AgentLoop(LlmClient llm, ToolInvoker invoker, Executor executor, int maxParallel, int maxRounds,
              ToolApprovals approvals, ToolCallGovernance governance) {
        this.llm = llm;
        this.invoker = invoker;
        this.approvals = approvals;
        this.governance = governance;
        this.executor = executor;
        this.maxParallel = maxParallel;
        this.maxRounds = maxRounds;
    }

    public ChatOutcome run(ChatTurn turn, LoopListener listener) throws LlmException {
        List<JsonObject> messages = new ArrayList<>(turn.messages());
        List<ToolCallRecord> records = new ArrayList<>();
        StringBuilder content = new StringBuilder();
        Usage usage = Usage.NONE;
        Set<String> clientTools = turn.clientToolNames();
        ToolChoice choice = ToolChoice.of(turn.options().get("tool_choice"));
        int rounds = 0;
        while (true) {
            boolean finalCall = rounds >= maxRounds;
            if (finalCall) {
                messages.add(JSON.createObjectBuilder().add("role", "system").add("content", ROUND_LIMIT_NOTE.formatted(maxRounds)).build());
            }
            LlmReply reply = ask(turn, messages, finalCall, rounds == 0 ? choice : ToolChoice.AUTO, listener);
            usage = usage.plus(reply.usage());
            content.append(reply.content());
            boolean toolsOffered = !finalCall && choice.mode() != ToolChoice.Mode.NONE;
            // the end of the run is saved by whoever ran it, from the outcome (with its finish reason): no save here
            if (!reply.hasToolCalls() || !toolsOffered) {
                // a provider that calls tools although none were offered gets its calls ignored
                String finish = reply.hasToolCalls() ? "stop" : reply.finishReason();
                return new ChatOutcome(reply.model(), content.toString(), finish, List.of(), records, usage, rounds, finalCall);
            }
            List<ToolCallRecord> round = reply.toolCalls().stream().map(call -> record(call, turn)).toList();
            if (!allServerRun(reply.toolCalls(), turn, clientTools)) {
                records.addAll(round);
                return new ChatOutcome(reply.model(), content.toString(), "tool_calls", reply.toolCalls(), records, usage, rounds, false);
            }
            messages.add(assistantMessage(reply));
            List<ToolResult> results = runRound(turn, round, records, content.toString(), listener);
            for (ToolResult result : results) {
                records.add(result.record());
                messages.add(JSON.createObjectBuilder().add("role", "tool").add("tool_call_id", result.record().id())
                        .add("content", result.content()).build());
            }
            rounds++;
            listener.onProgress(List.copyOf(records), content.toString());
        }
    }

    private LlmReply ask(ChatTurn turn, List<JsonObject> messages, boolean finalCall, ToolChoice choice, LoopListener listener)
            throws LlmException {
        boolean offerTools = !finalCall && choice.mode() != ToolChoice.Mode.NONE
                && (!turn.clientTools().isEmpty() || !turn.mcpTools().isEmpty());
        if (!offerTools || !choice.forcing()) {
            JsonObject request = request(turn, messages, offerTools ? choice : null);
            return turn.stream() ? llm.stream(request, textTo(listener)) : llm.complete(request);
        }
        // a forced tool call comes whole, so text from a provider that ignores the choice never reaches the caller
        LlmReply reply = llm.complete(request(turn, messages, choice));
        if (reply.hasToolCalls()) {
            return reply;
        }
        List<JsonObject> nudged = new ArrayList<>(messages);
        nudged.add(JSON.createObjectBuilder().add("role", "system").add("content", choice.nudge()).build());
        LlmReply retried = llm.complete(request(turn, nudged, choice));
        return new LlmReply(retried.model(), retried.content(), retried.toolCalls(), retried.finishReason(),
                reply.usage().plus(retried.usage()));
    }

    private static StreamListener textTo(LoopListener listener) {
        return new StreamListener() {
            @Override
            public void onContent(String delta) {
                listener.onContent(delta);
            }

            @Override
            public void onWaiting() {
                listener.onProviderWaiting();
            }
        };
    }

    /** The provider request: the caller's options, the history, and the tools unless {@code choice} is null. */
    private static JsonObject request(ChatTurn turn, List<JsonObject> messages, ToolChoice choice) {
        JsonObjectBuilder request = JSON.createObjectBuilder(turn.options());
        JsonArrayBuilder history = JSON.createArrayBuilder();
        messages.forEach(history::add);
        request.add("messages", history);
        request.remove("tools");
        request.remove("tool_choice");
        if (choice != null) {
            JsonArrayBuilder tools = JSON.createArrayBuilder();
            turn.clientTools().forEach(tools::add);
            turn.mcpTools().values().stream().map(McpTool::toFunction).forEach(tools::add);
            request.add("tools", tools).add("tool_choice", choice.json());
        }
        return request.build();
    }

    private static boolean allServerRun(List<ToolCall> calls, ChatTurn turn, Set<String> clientTools) {
        for (ToolCall call : calls) {
            McpTool tool = turn.mcpTools().get(call.name());
            boolean unknownAndNoCallerTools = tool == null && clientTools.isEmpty();
            boolean ours = tool != null && !clientTools.contains(call.name());
            if (!ours && !unknownAndNoCallerTools) {
                return false;
            }
        }
        return true;
    }

    private static ToolCallRecord record(ToolCall call, ChatTurn turn) {
        McpTool tool = turn.mcpTools().get(call.name());
        JsonValue arguments = parseArguments(call.arguments());
        JsonValue shown = arguments == null ? JSON.createValue(call.arguments()) : arguments;
        return tool == null
                ? new ToolCallRecord(call.id(), null, null, call.name(), call.name(), shown, ToolCallStatus.PENDING, null, false)
                : new ToolCallRecord(call.id(), tool.serverId(), tool.serverName(), tool.toolName(), call.name(), shown,
                        ToolCallStatus.PENDING, null, false);
    }

    private static JsonObject assistantMessage(LlmReply reply) {
        JsonArrayBuilder calls = JSON.createArrayBuilder();
        for (ToolCall call : reply.toolCalls()) {
            calls.add(JSON.createObjectBuilder().add("id", call.id()).add("type", "function")
                    .add("function", JSON.createObjectBuilder().add("name", call.name()).add("arguments", call.arguments())));
        }
        JsonObjectBuilder message = JSON.createObjectBuilder().add("role", "assistant");
        if (reply.content().isEmpty()) {
            message.addNull("content");
        } else {
            message.add("content", reply.content());
        }
        return message.add("tool_calls", calls).build();
    }

    private record ToolResult(ToolCallRecord record, String content) {
    }

    /**
     * Runs one server-run round: auto-approved calls start at once (at most {@code maxParallel} at a time), the
     * others wait for their approval first. Results come back in the calls' order.
     */
    private List<ToolResult> runRound(ChatTurn turn, List<ToolCallRecord> round, List<ToolCallRecord> earlier, String content,
                                      LoopListener listener) {
        List<ToolCallRecord> asked = round.stream().filter(r -> needsApproval(turn, r)).toList();
        List<ToolCallRecord> shown = new ArrayList<>(earlier);
        round.forEach(r -> shown.add(asked.contains(r) ? r : r.with(ToolCallStatus.INVOKING, null, false)));
        if (!asked.isEmpty()) {
            listener.onApprovalsNeeded(asked, List.copyOf(shown), content);
        }
        Semaphore slots = new Semaphore(maxParallel);
        Map<String, CompletableFuture<ToolResult>> results = new HashMap<>();
        List<ToolCallRecord> auto = shown.subList(earlier.size(), shown.size()).stream()
                .filter(r -> r.status() == ToolCallStatus.INVOKING).toList();
        startAll(turn, auto, slots, listener, results);
        if (!asked.isEmpty()) {
            long asking = System.nanoTime();
            Map<String, ToolApproval> decisions = approvals.await(asked, listener::onAwaitingApproval);
            List<ToolCallRecord> approved = new ArrayList<>();
            for (ToolCallRecord record : asked) {
                ToolApproval decision = decisions.get(record.id());
                if (decision.approved()) {
                    approved.add(new ToolCallRecord(record.id(), record.serverId(), record.serverName(), record.toolName(),
                            record.displayName(), decision.arguments() != null ? decision.arguments() : record.arguments(),
                            ToolCallStatus.INVOKING, null, false));
                } else {
                    ToolResult refused = refusedByUser(turn, record, decision, millisSince(asking));
                    listener.onToolResult(refused.record(), refused.content());
                    results.put(record.id(), CompletableFuture.completedFuture(refused));
                }
            }
            startAll(turn, approved, slots, listener, results);
        }
        return round.stream().map(r -> results.get(r.id()).join()).toList();
    }

    private ToolResult refusedByUser(ChatTurn turn, ToolCallRecord record, ToolApproval decision, long millis) {
        try {
            governance.record(turn.mcpTools().get(record.displayName()), record.arguments(), decision.auditDecision(), null, millis);
        } catch (AuditUnavailableException e) {
            return notAudited(record, e);
        }
        return new ToolResult(record.with(ToolCallStatus.CANCELLED, decision.refusal(), true), decision.refusal().toString());
    }

    /** A call the allowlist refuses anyway is not put to the user: it is refused when it would run. */
    private boolean needsApproval(ChatTurn turn, ToolCallRecord record) {
        McpTool tool = turn.mcpTools().get(record.displayName());
        return tool != null && !tool.autoApprove() && governance.allows(tool);
    }

    private void startAll(ChatTurn turn, List<ToolCallRecord> invoking, Semaphore slots, LoopListener listener,
                          Map<String, CompletableFuture<ToolResult>> results) {
        if (invoking.isEmpty()) {
            return;
        }
        listener.onToolCalls(invoking);
        for (ToolCallRecord record : invoking) {
            slots.acquireUninterruptibly();
            CompletableFuture<ToolResult> result;
            try {
                result = CompletableFuture.supplyAsync(() -> {
                    try {
                        ToolResult done = runOne(turn, record);
                        listener.onToolResult(done.record(), done.content());
                        return done;
                    } finally {
                        slots.release();
                    }
                }, executor);
            } catch (RuntimeException rejected) {
                slots.release();
                throw rejected;
            }
            results.put(record.id(), result);
        }
    }

    /**
     * Runs one call of a known tool after the tenant's policy admitted it, and reports it to the audit trail however
     * it ends; its result goes on (to the client and the LLM) only once its audit event is in the database. With the
     * audit database not answering the call does not run. A name no tool has reaches nothing, so there is nothing to
     * admit or audit.
     */
    private ToolResult runOne(ChatTurn turn, ToolCallRecord record) {
        McpTool tool = turn.mcpTools().get(record.displayName());
        if (tool == null) {
            return failed(record, "tool_not_found", "Tool '" + record.displayName() + "' not found");
        }
        try {
            governance.checkAuditWriting();
            return runAudited(tool, record);
        } catch (AuditUnavailableException e) {
            return notAudited(record, e);
        }
    }

    private ToolResult runAudited(McpTool tool, ToolCallRecord record) {
        long started = System.nanoTime();
        Optional<CallAdmission.Refusal> refusal = governance.admit(tool);
        if (refusal.isPresent()) {
            governance.record(tool, record.arguments(), refusal.get().decision(), null, millisSince(started));
            return refused(record, refusal.get());
        }
        if (!(record.arguments() instanceof JsonObject object)) {
            governance.record(tool, record.arguments(), CallAdmission.ALLOW, AuditOutcome.error(JsonRpcErrorCodes.INVALID_PARAMS),
                    millisSince(started));
            return failed(record, "invalid_arguments", "The arguments of '" + record.displayName() + "' are not a JSON object: "
                    + (record.arguments() instanceof JsonString raw ? raw.getString() : record.arguments()));
        }
        try {
            JsonObject result = invoker.call(tool, object);
            governance.record(tool, object, CallAdmission.ALLOW, AuditOutcome.ofResult(result), millisSince(started));
            boolean isError = result.getBoolean("isError", false);
            return new ToolResult(record.with(isError ? ToolCallStatus.ERROR : ToolCallStatus.DONE, result, isError), ToolResultText.of(result));
        } catch (McpException e) {
            governance.record(tool, object, CallAdmission.ALLOW, AuditOutcome.error(BackendFailures.codeOf(e)), millisSince(started));
            return failed(record, "tool_failed", "Tool execution failed: " + e.getMessage());
        } catch (RuntimeException e) {
            governance.record(tool, object, CallAdmission.ALLOW, AuditOutcome.error(JsonRpcErrorCodes.INTERNAL_ERROR), millisSince(started));
            return failed(record, "tool_failed", "Tool execution failed: " + e);
        }
    }

    private static long millisSince(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    private static ToolResult notAudited(ToolCallRecord record, AuditUnavailableException e) {
        return failed(record, AuditUnavailableException.CODE, "The call could not be audited, so its result is withheld: "
                + e.getMessage());
    }

    /** An error the LLM reads as the tool's result (the chat API's tool error shape), so it can recover. */
    private static ToolResult failed(ToolCallRecord record, String code, String message) {
        JsonObject error = JSON.createObjectBuilder().add("error", errorDetails(record, code, message)).build();
        return new ToolResult(record.with(ToolCallStatus.ERROR, error, true), error.toString());
    }

    /**
     * The tenant's policy refused the call: it did not run ({@code cancelled}), and the LLM and the client read why
     * in the same shape, with the wait a rate limit asks for.
     */
    private static ToolResult refused(ToolCallRecord record, CallAdmission.Refusal refusal) {
        JsonObjectBuilder details = errorDetails(record, refusal.code(), refusal.message());
        if (refusal.rateLimited()) {
            details.add("retry_after_ms", refusal.retryAfterMillis()).add("retry_after_seconds", refusal.retryAfterSeconds());
        }
        JsonObject error = JSON.createObjectBuilder().add("error", details).build();
        return new ToolResult(record.with(ToolCallStatus.CANCELLED, error, true), error.toString());
    }

    private static JsonObjectBuilder errorDetails(ToolCallRecord record, String code, String message) {
        return JSON.createObjectBuilder().add("message", message).add("type", "tool_execution_error").add("code", code)
                .add("tool_name", record.displayName());
    }

    private static JsonValue parseArguments(String text) {
        if (text == null || text.isBlank()) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        try (var reader = JSON.createReader(new StringReader(text))) {
            return reader.readValue();
        } catch (JsonException | IllegalStateException e) {
            return null;
        }
    }
}
