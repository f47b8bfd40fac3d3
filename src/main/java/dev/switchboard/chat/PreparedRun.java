package dev.switchboard.chat;

import dev.switchboard.security.CallerIdentity;

import java.util.List;

/**
 * A run ready to go: everything that needs the request (caller, assistant, tools, model) is resolved and checked,
 * so what is left (storing the turn, the agent loop) can happen while the response streams. Nothing is stored yet:
 * the identity's conversation and message ids are 0 until {@link ChatService} begins the run.
 *
 * @param firstText     the last user text, the title of a new conversation
 * @param newMessages   the request's messages to store in the conversation
 * @param governance    the tenant policy and audit trail the run's tool calls go through
 * @param workspacePath the session's workspace directory, or null without a session
 */
record PreparedRun(CallerIdentity caller, Long assistantId, String firstText, List<ConversationStore.NewMessage> newMessages,
                   ChatTurn turn, ToolInvoker invoker, ToolCallGovernance governance, CompletionIdentity identity,
                   String sessionId, String workspacePath, boolean includeUsage) {
}
