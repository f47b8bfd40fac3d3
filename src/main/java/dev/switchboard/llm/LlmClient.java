package dev.switchboard.llm;

import jakarta.json.JsonObject;

/** An OpenAI-compatible chat-completions endpoint. */
public interface LlmClient {

    /** The model used when a request names none. */
    String defaultModel();

    /**
     * One blocking completion.
     *
     * @param request an OpenAI chat-completions body without {@code stream}; a missing {@code model} gets the default
     */
    LlmReply complete(JsonObject request) throws LlmException;

    /** One streamed completion: text goes to {@code listener} as it arrives; returns the assembled turn. */
    LlmReply stream(JsonObject request, StreamListener listener) throws LlmException;
}
