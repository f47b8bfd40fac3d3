package dev.switchboard.knowledge;

/**
 * A passage that matched a question.
 *
 * @param source     file path relative to the knowledge folder, or the knowledge document's name
 * @param startLine  first line of the passage (1-based)
 * @param endLine    last line, inclusive
 * @param score      relevance in [0, 1] (see {@link KnowledgeQuery} for what it measures)
 * @param text       the passage
 * @param documentId the knowledge document it comes from; null for a file of the folder
 */
public record KnowledgeHit(String source, int startLine, int endLine, double score, String text, Long documentId) {
}
