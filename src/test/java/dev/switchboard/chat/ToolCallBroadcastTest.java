package dev.switchboard.chat;

import dev.switchboard.chat.events.ConversationEvent;
import dev.switchboard.chat.events.ConversationEvents;
import dev.switchboard.chat.events.InMemoryConversationEvents;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ToolCallBroadcastTest {

    private static final long CONVERSATION = 41;
    private static final long MESSAGE = 42;

    private final ConversationEvents events = new InMemoryConversationEvents(100, Duration.ofMinutes(1), System::currentTimeMillis);
    private final List<String> streamed = new ArrayList<>();
    private final StoringTurn turn = StoringTurn.start(() -> new ConversationStore.StoredRun(CONVERSATION, MESSAGE), Runnable::run, "test");
    private final ToolCallBroadcast broadcast = new ToolCallBroadcast(events, turn, new LoopListener() {
        @Override
        public void onApprovalsNeeded(List<ToolCallRecord> pending, List<ToolCallRecord> all, String content) {
            streamed.add("stream: " + pending.size() + " pending");
        }

        @Override
        public void onToolCalls(List<ToolCallRecord> invoking) {
            streamed.add("stream: " + invoking.size() + " invoking");
        }

        @Override
        public void onToolResult(ToolCallRecord finished, String content) {
            streamed.add("stream: " + finished.id() + " " + finished.status().json());
        }
    });

    private static ToolCallRecord call(String id, ToolCallStatus status) {
        return new ToolCallRecord(id, 7L, "srv", "echo", "mcp__srv__echo", Json.createObjectBuilder().add("message", id).build(),
                status, null, false);
    }

    @Test
    void everyStateOfEveryCallIsToldOnceAsBothEventsBeforeTheStreamHearsOfIt() {
        List<ConversationEvent> told = new ArrayList<>();
        events.watch(CONVERSATION, null, told::add);
        ToolCallRecord asked = call("a", ToolCallStatus.PENDING);
        ToolCallRecord auto = call("b", ToolCallStatus.INVOKING);
        broadcast.onApprovalsNeeded(List.of(asked), List.of(asked, auto), "");
        broadcast.onToolCalls(List.of(auto));
        broadcast.onToolCalls(List.of(call("a", ToolCallStatus.INVOKING)));
        ToolCallRecord done = call("b", ToolCallStatus.DONE).with(ToolCallStatus.DONE, Json.createObjectBuilder().build(), false);
        broadcast.onToolResult(done, "ok");
        broadcast.catchUp(List.of(call("a", ToolCallStatus.INVOKING), done));

        List<String> calls = new ArrayList<>();
        for (int i = 0; i < told.size(); i += 2) {
            JsonObject call = told.get(i).data();
            JsonObject message = told.get(i + 1).data();
            assertEquals(ToolCallBroadcast.TOOL_CALL_UPDATED, told.get(i).type());
            assertEquals(ToolCallBroadcast.TOOL_MESSAGE_UPDATED, told.get(i + 1).type());
            assertEquals(CONVERSATION, call.getJsonNumber("conversationId").longValue());
            assertEquals(MESSAGE, call.getJsonNumber("messageId").longValue());
            assertEquals(call.getString("toolCallId"), call.getJsonObject("toolCall").getString("id"));
            assertEquals(2, message.getJsonArray("toolCalls").size(), "the message's calls, both from the start");
            calls.add(call.getString("toolCallId") + " " + call.getJsonObject("toolCall").getString("status"));
        }
        assertEquals(List.of("a pending", "b invoking", "a invoking", "b done"), calls, "each state once, nothing told twice");
        assertEquals(List.of("stream: 1 pending", "stream: 1 invoking", "stream: 1 invoking", "stream: b done"), streamed);
        JsonObject last = told.get(told.size() - 1).data();
        assertEquals(List.of("invoking", "done"), last.getJsonArray("toolCalls").getValuesAs(JsonObject.class).stream()
                .map(c -> c.getString("status")).toList(), "the message as it stands, in the calls' order");
    }
}
