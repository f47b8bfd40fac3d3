/**
 * Session workspaces of the chat API: one directory per session, its expiry, and the built-in workspace tools.
 * <p>
 * May use: no other room (the allowed arrows of docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.workspace;
