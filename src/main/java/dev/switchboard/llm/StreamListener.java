package dev.switchboard.llm;

/** Receives a streamed completion's text as it arrives; tool calls come whole, in the assembled {@link LlmReply}. */
@FunctionalInterface
public interface StreamListener {

    void onContent(String delta);

    /**
     * The provider has sent nothing more yet: the read is about to wait for it. Text passed on so far should reach the
     * caller now; text that arrives together need not be sent one piece at a time.
     */
    default void onWaiting() {
    }
}
