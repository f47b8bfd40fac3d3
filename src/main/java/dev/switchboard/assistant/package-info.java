/**
 * Assistants: a system prompt, a model and the MCP servers whose tools they may use.
 * <p>
 * May use: {@code platform}, {@code security}, {@code backend} (the allowed arrows of docs/architecture.md, checked by
 * {@code ArchitectureTest}).
 */
package dev.switchboard.assistant;
