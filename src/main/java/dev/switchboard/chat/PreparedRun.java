package dev.switchboard.chat;

/**
 * A run ready to go: everything that needs the request (caller, assistant, tools, conversation) is resolved, so
 * the run itself can happen while the response streams. The identity names the stored assistant message it fills in.
 *
 * @param workspacePath the session's workspace directory, or null without a session
 */
record PreparedRun(AgentLoop loop, ChatTurn turn, CompletionIdentity identity, String sessionId, String workspacePath,
                   boolean includeUsage) {
}
