package dev.switchboard.chat;

import java.util.UUID;

/**
 * What every answer and every chunk of one request share: OpenAI's {@code id}, {@code created}, {@code model}, and
 * where the run is stored (the conversation and its assistant message).
 */
record CompletionIdentity(String id, long created, String model, long conversationId, long messageId) {

    /** A new completion, not stored yet (conversation and message ids 0): enough for a stream's first chunk. */
    static CompletionIdentity next(String model) {
        return new CompletionIdentity("chatcmpl-" + UUID.randomUUID().toString().replace("-", ""),
                System.currentTimeMillis() / 1000, model, 0, 0);
    }

    CompletionIdentity storedAs(ConversationStore.StoredRun stored) {
        return new CompletionIdentity(id, created, model, stored.conversationId(), stored.messageId());
    }
}
