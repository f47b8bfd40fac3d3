package dev.switchboard.chat;

import java.util.UUID;

/** What every answer and every chunk of one request share: OpenAI's {@code id}, {@code created}, {@code model}. */
record CompletionIdentity(String id, long created, String model, long conversationId) {

    static CompletionIdentity next(String model, long conversationId) {
        return new CompletionIdentity("chatcmpl-" + UUID.randomUUID().toString().replace("-", ""),
                System.currentTimeMillis() / 1000, model, conversationId);
    }
}
