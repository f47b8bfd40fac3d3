/**
 * {@code /api/chat/completions} against the scripted LLM provider: the agent loop with real MCP tools, streaming,
 * approvals, tenant policy and audit of chat tool calls, the official {@code openai} client, workspaces, and the
 * knowledge base that feeds a chat.
 */
package dev.switchboard.it.chat;
