package dev.switchboard.chat;

import dev.switchboard.llm.ToolCall;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.util.List;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** The OpenAI {@code chat.completion} answer, plus the chat API's {@code tool_execution} block and the conversation. */
final class CompletionJson {

    private CompletionJson() {
    }

    static JsonObject completion(CompletionIdentity identity, ChatOutcome outcome, String sessionId, String workspacePath) {
        JsonObjectBuilder message = JSON.createObjectBuilder().add("role", "assistant");
        if (outcome.content().isEmpty() && !outcome.pendingCalls().isEmpty()) {
            message.addNull("content");
        } else {
            message.add("content", outcome.content());
        }
        if (!outcome.pendingCalls().isEmpty()) {
            message.add("tool_calls", toolCalls(outcome.pendingCalls(), false));
        }
        return JSON.createObjectBuilder()
                .add("id", identity.id())
                .add("object", "chat.completion")
                .add("created", identity.created())
                .add("model", identity.model())
                .add("choices", JSON.createArrayBuilder().add(JSON.createObjectBuilder().add("index", 0)
                        .add("message", message).add("finish_reason", outcome.finishReason())))
                .add("usage", outcome.usage().toJson())
                .add("tool_execution", toolExecution(outcome, sessionId, workspacePath))
                .add("conversation_id", identity.conversationId())
                .add("message_id", identity.messageId())
                .build();
    }

    /** The chat API's block; {@code rounds} and {@code round_limit_reached} say how the loop ended. */
    static JsonObject toolExecution(ChatOutcome outcome, String sessionId, String workspacePath) {
        JsonArrayBuilder called = JSON.createArrayBuilder();
        outcome.toolsCalled().forEach(called::add);
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("executed", outcome.executed())
                .add("tools_called", called)
                .add("rounds", outcome.rounds())
                .add("round_limit_reached", outcome.roundLimitReached());
        if (sessionId == null) {
            json.addNull("session_id").addNull("workspace_path");
        } else {
            json.add("session_id", sessionId).add("workspace_path", workspacePath);
        }
        return json.build();
    }

    /** OpenAI {@code tool_calls}; with {@code indexed}, each carries its {@code index} as stream deltas need. */
    static JsonArrayBuilder toolCalls(List<ToolCall> calls, boolean indexed) {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        for (int i = 0; i < calls.size(); i++) {
            ToolCall call = calls.get(i);
            JsonObjectBuilder json = JSON.createObjectBuilder();
            if (indexed) {
                json.add("index", i);
            }
            array.add(json.add("id", call.id()).add("type", "function")
                    .add("function", JSON.createObjectBuilder().add("name", call.name()).add("arguments", call.arguments())));
        }
        return array;
    }
}
