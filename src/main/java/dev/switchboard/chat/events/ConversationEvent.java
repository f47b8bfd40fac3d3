package dev.switchboard.chat.events;

import jakarta.json.JsonObject;

/**
 * One event of a conversation.
 *
 * @param type the SSE event name ({@code assistant.toolCall.updated}, {@code tool.message.updated})
 * @param data what the event's {@code data:} line carries
 */
public record ConversationEvent(long conversationId, EventId id, String type, JsonObject data) {
}
