package dev.switchboard.chat;

import dev.switchboard.chat.events.ConversationEvents;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Tells everyone watching a run's conversation ({@link ConversationEvents}) of each change of its tool calls' states,
 * as seed 004's two events: {@value #TOOL_CALL_UPDATED} (the call that changed) and {@value #TOOL_MESSAGE_UPDATED}
 * (the assistant message's calls as they stand), then passes the loop's events on. A change is told before the
 * stream is written, so a stream whose client has gone keeps nobody else from hearing of it; each state of a call is
 * told once. A failure to tell is logged and never stops the run.
 */
final class ToolCallBroadcast implements LoopListener {

    static final String TOOL_CALL_UPDATED = "assistant.toolCall.updated";
    static final String TOOL_MESSAGE_UPDATED = "tool.message.updated";

    private static final Logger LOG = Logger.getLogger(ToolCallBroadcast.class.getName());

    private final ConversationEvents events;
    private final StoringTurn turn;
    private final LoopListener next;
    /** The message's calls in order, as they stand. */
    private final Map<String, ToolCallRecord> calls = new LinkedHashMap<>();
    /** What was told of each call last. */
    private final Map<String, ToolCallRecord> told = new HashMap<>();

    ToolCallBroadcast(ConversationEvents events, StoringTurn turn, LoopListener next) {
        this.events = events;
        this.turn = turn;
        this.next = next;
    }

    @Override
    public void onContent(String delta) {
        next.onContent(delta);
    }

    @Override
    public void onProviderWaiting() {
        next.onProviderWaiting();
    }

    /** The round's auto-approved calls are in {@code all} as {@code invoking}: they are told when they start. */
    @Override
    public void onApprovalsNeeded(List<ToolCallRecord> pending, List<ToolCallRecord> all, String content) {
        synchronized (this) {
            all.forEach(record -> calls.put(record.id(), record));
            pending.forEach(this::tell);
        }
        next.onApprovalsNeeded(pending, all, content);
    }

    @Override
    public void onAwaitingApproval() {
        next.onAwaitingApproval();
    }

    @Override
    public void onToolCalls(List<ToolCallRecord> invoking) {
        catchUp(invoking);
        next.onToolCalls(invoking);
    }

    @Override
    public void onToolResult(ToolCallRecord finished, String content) {
        catchUp(List.of(finished));
        next.onToolResult(finished, content);
    }

    @Override
    public void onProgress(List<ToolCallRecord> records, String content) {
        next.onProgress(records, content);
    }

    /**
     * Tells the states of these records that were not told yet: at the end of a run, the calls handed back to the
     * caller (manual mode); after a stream's client left, the calls the wait cancelled as the store has them.
     */
    synchronized void catchUp(Collection<ToolCallRecord> records) {
        for (ToolCallRecord record : records) {
            calls.put(record.id(), record);
            tell(record);
        }
    }

    private void tell(ToolCallRecord record) {
        if (record.equals(told.get(record.id()))) {
            return;
        }
        told.put(record.id(), record);
        ConversationStore.StoredRun ids = turn.get();
        JsonArrayBuilder all = JSON.createArrayBuilder();
        calls.values().forEach(call -> all.add(call.toJson()));
        JsonObject call = JSON.createObjectBuilder().add("conversationId", ids.conversationId()).add("messageId", ids.messageId())
                .add("toolCallId", record.id()).add("toolCall", record.toJson()).build();
        JsonObject message = JSON.createObjectBuilder().add("conversationId", ids.conversationId()).add("messageId", ids.messageId())
                .add("toolCalls", all).build();
        try {
            events.publish(ids.conversationId(), TOOL_CALL_UPDATED, call);
            events.publish(ids.conversationId(), TOOL_MESSAGE_UPDATED, message);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not tell the watchers of conversation " + ids.conversationId()
                    + " that tool call " + record.id() + " is " + record.status().json(), e);
        }
    }
}
