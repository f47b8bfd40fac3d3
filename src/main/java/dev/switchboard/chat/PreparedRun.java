package dev.switchboard.chat;

/**
 * A run ready to go: everything that needs the request (caller, assistant, tools, conversation) is resolved, so
 * the run itself can happen while the response streams.
 *
 * @param messageId the stored assistant message the run fills in
 */
record PreparedRun(AgentLoop loop, ChatTurn turn, CompletionIdentity identity, long messageId, String sessionId,
                   boolean includeUsage) {
}
