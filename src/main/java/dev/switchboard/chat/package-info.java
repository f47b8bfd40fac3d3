/**
 * The chat API: {@code /api/chat/completions}, the agent loop, tool calls under the tenant's policy and in the
 * audit trail, conversations, messages and approvals. It reaches backends through {@code backend.access}, as the
 * gateway does.
 * <p>
 * May use: {@code platform}, {@code security}, {@code observability}, {@code mcp}, {@code llm}, {@code workspace},
 * {@code audit}, {@code policy}, {@code backend}, {@code assistant}, {@code knowledge} (the allowed arrows of
 * docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.chat;
