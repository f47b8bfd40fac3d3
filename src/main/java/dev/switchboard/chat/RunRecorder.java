package dev.switchboard.chat;

import java.util.List;

/**
 * Saves the run's assistant message as the loop reports progress (the MCP client system: one message, updated in place), and
 * passes every event on to the stream, if there is one. The turn may still be being stored when the run begins:
 * text streams on at once, but every other event waits for the stored turn first, so no tool call starts and no
 * event names the message before it exists, and a turn that could not be stored ends the run there
 * ({@link StoringTurn.NotStored}).
 */
final class RunRecorder implements LoopListener {

    private final ConversationStore store;
    private final StoringTurn turn;
    private final LoopListener next;

    RunRecorder(ConversationStore store, StoringTurn turn, LoopListener next) {
        this.store = store;
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

    @Override
    public void onApprovalsNeeded(List<ToolCallRecord> pending, List<ToolCallRecord> all, String content) {
        store.updateAssistant(turn.messageId(), content, all, null);
        next.onApprovalsNeeded(pending, all, content);
    }

    @Override
    public void onAwaitingApproval() {
        next.onAwaitingApproval();
    }

    @Override
    public void onToolCalls(List<ToolCallRecord> invoking) {
        turn.get();
        next.onToolCalls(invoking);
    }

    @Override
    public void onToolResult(ToolCallRecord finished, String content) {
        next.onToolResult(finished, content);
    }

    @Override
    public void onProgress(List<ToolCallRecord> records, String content) {
        store.updateAssistant(turn.messageId(), content, records, null);
        next.onProgress(records, content);
    }
}
