package dev.switchboard.chat;

import java.util.List;

/**
 * Saves the run's assistant message as the loop reports progress (seed 004: one message, updated in place), and
 * passes every event on to the stream, if there is one.
 */
final class RunRecorder implements LoopListener {

    private final ConversationStore store;
    private final long messageId;
    private final LoopListener next;

    RunRecorder(ConversationStore store, long messageId, LoopListener next) {
        this.store = store;
        this.messageId = messageId;
        this.next = next;
    }

    @Override
    public void onContent(String delta) {
        next.onContent(delta);
    }

    @Override
    public void onApprovalsNeeded(List<ToolCallRecord> pending, List<ToolCallRecord> all, String content) {
        store.updateAssistant(messageId, content, all, null);
        next.onApprovalsNeeded(pending, all, content);
    }

    @Override
    public void onAwaitingApproval() {
        next.onAwaitingApproval();
    }

    @Override
    public void onToolCalls(List<ToolCallRecord> invoking) {
        next.onToolCalls(invoking);
    }

    @Override
    public void onToolResult(ToolCallRecord finished, String content) {
        next.onToolResult(finished, content);
    }

    @Override
    public void onProgress(List<ToolCallRecord> records, String content) {
        store.updateAssistant(messageId, content, records, null);
        next.onProgress(records, content);
    }
}
