package dev.switchboard.chat;

import java.util.UUID;

/**
 * What every answer and every chunk of one request share: OpenAI's {@code id}, {@code created}, {@code model}, and
 * where the run is stored (the conversation and its assistant message).
 */
record CompletionIdentity(String id, long created, String model, long conversationId, long messageId) {

    static CompletionIdentity next(String model, long conversationId, long messageId) {
        return new CompletionIdentity("chatcmpl-" + UUID.randomUUID().toString().replace("-", ""),
                System.currentTimeMillis() / 1000, model, conversationId, messageId);
    }
}
