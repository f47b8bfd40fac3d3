/**
 * The knowledge base: the folder index (BM25 over passages), the retriever that gives a chat run its context,
 * {@code /api/knowledge} and the built-in {@code knowledge} server.
 * <p>
 * May use: {@code platform}, {@code security}, {@code mcp}, {@code backend} (the allowed arrows of
 * docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.knowledge;
