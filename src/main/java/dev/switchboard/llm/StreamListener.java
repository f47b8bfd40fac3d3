package dev.switchboard.llm;

/** Receives a streamed completion's text as it arrives; tool calls come whole, in the assembled {@link LlmReply}. */
@FunctionalInterface
public interface StreamListener {

    void onContent(String delta);
}
